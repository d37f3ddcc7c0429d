#pragma once
// Reading and writing report files for the commands that take a JSON report (report, harden).
#include <string>

#include "report/model.h"

namespace barracuda::cli {

// Parses a JSON report; errors name the file (throws std::runtime_error).
report::Report load_report(const std::string& path);

// Writes `contents` to `path`, or to stdout for "-".
void write_output(const std::string& path, const std::string& contents);

}  // namespace barracuda::cli
