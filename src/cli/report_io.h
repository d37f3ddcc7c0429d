#pragma once
// Output of the commands that take a JSON report (report, harden); they read it with
// report::load_json_report_file.
#include <string>

namespace barracuda::cli {

// Writes `contents` to `path`, or to stdout for "-".
void write_output(const std::string& path, const std::string& contents);

}  // namespace barracuda::cli
