#include "report/process_files.h"

#include <algorithm>
#include <regex>

#include "report/json_report.h"
#include "report/report_file.h"

namespace barracuda::report {
namespace {

constexpr std::string_view kPidPattern = "%p";
constexpr std::string_view kPendingSuffix = ".pending";
constexpr std::string_view kRunReportPrefix = "report.";

}  // namespace

std::string process_file_path(std::string_view pattern, uint32_t pid, bool top_process) {
  std::string path(pattern);
  const std::string id = std::to_string(pid);
  if (path.find(kPidPattern) != std::string::npos) {
    for (size_t at = path.find(kPidPattern); at != std::string::npos; at = path.find(kPidPattern, at + id.size())) {
      path.replace(at, kPidPattern.size(), id);
    }
    return path;
  }
  if (top_process || path.empty()) return path;
  // Before the extension of the file name (not of a directory): "out/r.json" -> "out/r.PID.json".
  const size_t name_start = path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1;
  const size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || dot <= name_start) return path + "." + id;
  return path.substr(0, dot) + "." + id + path.substr(dot);
}

std::string pending_marker_path(std::string_view report_path) { return std::string(report_path) + std::string(kPendingSuffix); }

std::string run_report_pattern(const std::filesystem::path& directory) {
  return (directory / (std::string(kRunReportPrefix) + std::string(kPidPattern) + ".json")).string();
}

ProcessReports read_process_reports(const std::filesystem::path& directory) {
  static const std::regex report_name(R"(report\.([0-9]+)\.json)");
  static const std::regex marker_name(R"(report\.([0-9]+)\.json\.pending)");
  ProcessReports found;
  std::error_code error;
  std::vector<std::filesystem::path> entries;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error)) entries.push_back(entry.path());
  std::sort(entries.begin(), entries.end());
  for (const std::filesystem::path& path : entries) {
    const std::string name = path.filename().string();
    std::smatch match;
    if (std::regex_match(name, match, marker_name)) {
      // The report is written before the marker is removed: a marker beside a report is a process
      // that was still finishing; only one without a report means the process never wrote it.
      if (std::filesystem::exists(path.parent_path() / path.stem(), error)) continue;
      std::string command;
      try {
        command = read_report_file(path.string());
      } catch (const ReportFileError&) {  // the marker vanished or is unreadable: name the pid alone
      }
      found.unchecked.push_back({"process " + match[1].str() + (command.empty() ? "" : " (" + command + ")"),
                                 "ended before writing its report (a crash, a signal or _exit)"});
    } else if (std::regex_match(name, match, report_name)) {
      try {
        Report report = parse_json_report(read_report_file(path.string()));
        if (report.run.pid == 0) report.run.pid = static_cast<uint32_t>(std::stoul(match[1].str()));
        found.reports.push_back(std::move(report));
      } catch (const std::exception& e) {
        found.unchecked.push_back({"process " + match[1].str(), std::string("unreadable report: ") + e.what()});
      }
    }
  }
  std::stable_sort(found.reports.begin(), found.reports.end(), [](const Report& a, const Report& b) {
    return a.run.start_time != b.run.start_time ? a.run.start_time < b.run.start_time : a.run.pid < b.run.pid;
  });
  return found;
}

}  // namespace barracuda::report
