#pragma once
// The process exit code of a checked run (BRIEF section 6), most important first:
//   races_found (66)        new races (not in the baseline) or barrier divergence;
//   the app's own code      when the app failed and no race was found;
//   analysis_incomplete (67) events dropped or kernels not instrumented: "clean" would be a claim
//                            the run cannot back;
//   0                       checked, clean.
// Usage errors exit with kUsageErrorExitCode before anything runs.
#include "report/model.h"

namespace barracuda::report {

inline constexpr int kUsageErrorExitCode = 2;

struct ExitCodePolicy {
  int races_found = 66;
  int analysis_incomplete = 67;
};

int exit_code_for(const Report& report, int app_exit_code, const ExitCodePolicy& policy);

}  // namespace barracuda::report
