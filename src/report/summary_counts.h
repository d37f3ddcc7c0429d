#pragma once
// Figures derived from a report's lists, computed in one place so every renderer prints the same ones.
#include <cstdint>

#include "report/model.h"

namespace barracuda::report {

struct SummaryCounts {
  uint64_t unique_races = 0;
  uint64_t new_races = 0;  // unique races not in the baseline
  uint64_t dynamic_races = 0;
  uint64_t barrier_divergences = 0;
  uint64_t warnings = 0;  // same-value write-write pairs, unfenced acquires and redundant barriers
};

SummaryCounts count_summary(const Report& report);

// Dropped events or kernels that could not be instrumented: the run was not fully checked.
bool analysis_incomplete(const Report& report);

}  // namespace barracuda::report
