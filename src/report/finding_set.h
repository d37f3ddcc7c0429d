#pragma once
// A report's findings, each once: races by fingerprint (fingerprint.h: two races of one kernel between
// the same two source positions and access kinds, of one class, hazard family and memory space), and
// diagnostics by kind, kernel and site (function and source position), however many instructions they
// came from (a loop the compiler unrolled) and however many processes saw them (merge.h).
#include <map>
#include <string>
#include <vector>

#include "report/model.h"

namespace barracuda::report {

template <typename Finding>
class FindingSet {
 public:
  // Adds to `findings`, which must outlive the set; the findings already there are indexed.
  explicit FindingSet(std::vector<Finding>& findings);

  // Adds `finding`, or folds it into the one of its key already there. Returns the finding added, or
  // nullptr where it was folded. A race's counts add up, and it stays a same-value warning or an
  // unfenced acquire only if both were; of two diagnostics the first stands for both.
  Finding* add(Finding finding);

 private:
  std::vector<Finding>& findings_;
  std::map<std::string, size_t> by_key_;
};

using RaceSet = FindingSet<Race>;
using DiagnosticSet = FindingSet<Diagnostic>;

}  // namespace barracuda::report
