// The suppressions parser and matcher on arbitrary input: parse or SuppressionsError, never a crash,
// and matching stays bounded on any pattern.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "report/suppressions.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace barracuda::report;
  const std::string_view text{reinterpret_cast<const char*>(data), size};
  try {
    auto suppressions = parse_suppressions(text, "fuzz");
    Report report;
    Race race;
    race.kernel = "histogram<float>";
    race.current.site = Site{"add_bin", 1, {"/src/hist.cu", 12, 5}, {{"histogram", {"/src/hist.cu", 30, 9}}}};
    report.races.push_back(race);
    apply_suppressions(report, suppressions);
  } catch (const SuppressionsError&) {
  }
  return 0;
}
