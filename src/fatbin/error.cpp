#include "fatbin/error.h"

#include <cstdio>

namespace barracuda::fatbin {

std::string hex(std::uint64_t value) {
  char text[20];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

FormatError::FormatError(std::uint64_t offset, const std::string& message)
    : std::runtime_error("offset " + hex(offset) + ": " + message), offset_(offset), detail_(message) {}

}  // namespace barracuda::fatbin
