#include "report/value_text.h"

#include <charconv>
#include <cinttypes>
#include <cstdio>

namespace barracuda::report {

std::string address_text(uint64_t address) {
  char text[19];
  std::snprintf(text, sizeof text, "0x%" PRIx64, address);
  return text;
}

std::optional<uint64_t> parse_address_text(std::string_view text) {
  if (!text.starts_with("0x") || text.size() < 3 || text.size() > 18) return std::nullopt;
  uint64_t value = 0;
  const char* end = text.data() + text.size();
  auto [stop, error] = std::from_chars(text.data() + 2, end, value, 16);
  if (error != std::errc{} || stop != end) return std::nullopt;
  return value;
}

std::string dim3_text(const Dim3& d) {
  return '(' + std::to_string(d.x) + ',' + std::to_string(d.y) + ',' + std::to_string(d.z) + ')';
}

std::string source_location_text(const SourceLocation& location) {
  return location.file + ':' + std::to_string(location.line) + ':' + std::to_string(location.column);
}

std::string site_position_text(const Site& site) {
  return site.source.known() ? site.source.file + ':' + std::to_string(site.source.line)
                             : "PTX line " + std::to_string(site.ptx_line);
}

}  // namespace barracuda::report
