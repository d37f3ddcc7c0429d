#include "report/summary_counts.h"

namespace barracuda::report {

SummaryCounts count_summary(const Report& report) {
  SummaryCounts counts;
  for (const Race& race : report.races) {
    if (race.same_value || race.unfenced_acquire) {
      ++counts.warnings;
      continue;
    }
    ++counts.unique_races;
    counts.dynamic_races += race.dynamic_count;
    if (!race.known) ++counts.new_races;
  }
  for (const Diagnostic& diagnostic : report.diagnostics) {
    switch (diagnostic.kind) {
      case DiagnosticKind::kBarrierDivergence: ++counts.barrier_divergences; break;
      case DiagnosticKind::kRedundantBarrier: ++counts.warnings; break;
    }
  }
  return counts;
}

bool analysis_incomplete(const Report& report) {
  return report.summary.dropped_events != 0 || !report.summary.kernels_skipped.empty();
}

}  // namespace barracuda::report
