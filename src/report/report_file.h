#pragma once
// Writing a report file (JSON, SARIF): every writer of reports uses this one, so that all of them
// replace a regular file at the path but never write through a symbolic link (a report path planted
// as a link must not overwrite what it points to), and all say why a write failed.
#include <stdexcept>
#include <string>
#include <string_view>

namespace barracuda::report {

class ReportFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws ReportFileError ("cannot write PATH: REASON").
void write_report_file(const std::string& path, std::string_view contents);

// The whole file (a report, a suppressions file, a baseline, a pending marker). Throws ReportFileError
// ("cannot read PATH: REASON").
std::string read_report_file(const std::string& path);

struct Report;
// A JSON report read and parsed. Throws std::runtime_error naming the file: ReportFileError, or the
// format error after "PATH: ".
Report load_json_report_file(const std::string& path);

}  // namespace barracuda::report
