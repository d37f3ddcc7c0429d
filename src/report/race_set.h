#pragma once
// A report's races, one per fingerprint (fingerprint.h): two races of one kernel between the same two
// source positions and access kinds, of one class, hazard family and memory space, are one finding
// however many instructions they came from (a loop the compiler unrolled, one process or several).
#include <map>
#include <string>
#include <vector>

#include "report/model.h"

namespace barracuda::report {

class RaceSet {
 public:
  // Adds to `races`, which must outlive the set; the races already there are indexed.
  explicit RaceSet(std::vector<Race>& races);

  // Adds `race`, or folds it into the race of its fingerprint already there: the counts add up, and it
  // stays a same-value warning or an unfenced acquire only if both were. Returns the race added, or
  // nullptr where it was folded.
  Race* add(Race race);

 private:
  std::vector<Race>& races_;
  std::map<std::string, size_t> by_fingerprint_;
};

}  // namespace barracuda::report
