#include "cli/report_io.h"

#include <iostream>

#include "report/report_file.h"

namespace barracuda::cli {

void write_output(const std::string& path, const std::string& contents) {
  if (path == "-") {
    std::cout << contents;
    return;
  }
  report::write_report_file(path, contents);
}

}  // namespace barracuda::cli
