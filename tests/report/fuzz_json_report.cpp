// Any bytes given to the JSON report reader either parse into a report that renders and round-trips,
// or raise ReportFormatError.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string_view>

#include "report/json_report.h"
#include "report/sarif_renderer.h"
#include "report/text_renderer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace barracuda::report;
  Report report;
  try {
    report = parse_json_report(std::string_view{reinterpret_cast<const char*>(data), size});
  } catch (const ReportFormatError&) {
    return 0;
  }
  std::ostringstream text;
  render_text(report, TextOptions{.print_limit = 3}, text);
  render_sarif(report);
  if (!(parse_json_report(render_json(report)) == report)) std::abort();
  return 0;
}
