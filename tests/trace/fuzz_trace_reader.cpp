// The trace reader on arbitrary bytes: it yields items or throws TraceFormatError, never reads out of
// bounds or allocates beyond its section limit.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "trace/trace_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::istringstream in{std::string{reinterpret_cast<const char*>(data), size}};
  try {
    barracuda::trace::TraceReader reader{in};
    while (reader.next()) {
    }
  } catch (const barracuda::trace::TraceFormatError&) {
  }
  return 0;
}
