#pragma once
// A report's findings, each once: races by fingerprint (fingerprint.h: two races of one kernel between
// the same two source positions and access kinds, of one class, hazard family and memory space), and
// diagnostics by kind, kernel and source position, however many instructions they came from (a loop
// the compiler unrolled) and however many processes saw them (merge.h).
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

class DiagnosticSet {
 public:
  // Adds to `diagnostics`, which must outlive the set; the diagnostics already there are indexed.
  explicit DiagnosticSet(std::vector<Diagnostic>& diagnostics);

  // Adds `diagnostic` unless one of its kind, kernel and source position is there (the first stands
  // for both). Returns the diagnostic added, or nullptr.
  Diagnostic* add(Diagnostic diagnostic);

 private:
  std::vector<Diagnostic>& diagnostics_;
  std::map<std::string, size_t> by_key_;
};

}  // namespace barracuda::report
