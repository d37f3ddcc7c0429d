#pragma once
// Where each process of a run writes its report, so that no process overwrites another's findings
// (a shell, make, ctest or python's subprocess under the preload exits after its children).
//   - A path with "%p" has it replaced by the process id (as ThreadSanitizer's log_path).
//   - Without "%p", the top process of the run (the first under the preload) writes to the path
//     itself and every other process inserts ".PID" before the extension: r.json -> r.4711.json.
//   - A process writes a "pending" marker beside its report when it first loads GPU code, and removes
//     it once the report is written: a marker left behind means the process ended before it could
//     write one (a crash, _exit, a signal), and its run was not checked.
// `barracuda run` gives every process "DIR/report.%p.json" and merges what it finds (report/merge.h).
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "report/model.h"

namespace barracuda::report {

std::string process_file_path(std::string_view pattern, uint32_t pid, bool top_process);
std::string pending_marker_path(std::string_view report_path);

// The file pattern `barracuda run` passes to the processes of a run, in `directory`.
std::string run_report_pattern(const std::filesystem::path& directory);

struct ProcessReports {
  std::vector<Report> reports;           // in the order the processes started
  std::vector<SkippedKernel> unchecked;  // processes that left a pending marker, or an unreadable report
};

// Reads what the processes of a run wrote into `directory` under run_report_pattern().
ProcessReports read_process_reports(const std::filesystem::path& directory);

}  // namespace barracuda::report
