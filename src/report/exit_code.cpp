#include "report/exit_code.h"

#include "report/summary_counts.h"

namespace barracuda::report {

int exit_code_for(const Report& report, int app_exit_code, const ExitCodePolicy& policy) {
  const SummaryCounts counts = count_summary(report);
  if (counts.new_races != 0 || counts.barrier_divergences != 0) return policy.races_found;
  if (app_exit_code != 0) return app_exit_code;
  if (analysis_incomplete(report)) return policy.analysis_incomplete;
  return 0;
}

}  // namespace barracuda::report
