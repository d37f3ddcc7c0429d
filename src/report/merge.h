#pragma once
// One report for a run of several processes (a shell, make, ctest or pytest starting CUDA programs):
// every process under the tool writes its own report (report/process_files.h), and `barracuda run`
// merges them with merge_process_reports(). A race seen in several processes (the same fingerprint) is
// one race whose dynamic count is the sum, named by the first process that saw it; counts add up; the
// run is incomplete if any process's analysis was.
#include <string>
#include <vector>

#include "report/model.h"

namespace barracuda::report {

// `reports` in the order the processes started (their pids are in RunInfo::pid); `command_line` is
// the command the user ran (the top process). Statistics are summed where they add up (events, time)
// and the largest value taken where they do not (queue memory, drain threads).
Report merge_process_reports(const std::vector<Report>& reports, std::vector<std::string> command_line);

}  // namespace barracuda::report
