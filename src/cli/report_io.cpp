#include "cli/report_io.h"

#include <iostream>
#include <stdexcept>

#include "report/json_report.h"
#include "report/report_file.h"

namespace barracuda::cli {

report::Report load_report(const std::string& path) {
  try {
    return report::parse_json_report(report::read_report_file(path));
  } catch (const report::ReportFormatError& error) {
    throw std::runtime_error(path + ": " + error.what());
  }
}

void write_output(const std::string& path, const std::string& contents) {
  if (path == "-") {
    std::cout << contents;
    return;
  }
  report::write_report_file(path, contents);
}

}  // namespace barracuda::cli
