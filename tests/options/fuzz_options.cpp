// BARRACUDA_OPTIONS parsing on arbitrary text: parse or OptionsError; whatever parses formats back
// to a string that parses to the same options.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "options/options.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace barracuda::options;
  Options options;
  try {
    parse_options(std::string_view{reinterpret_cast<const char*>(data), size}, options);
  } catch (const OptionsError&) {
    return 0;
  }
  Options reparsed;
  parse_options(format_options(options), reparsed);
  if (!(reparsed == options)) std::abort();
  return 0;
}
