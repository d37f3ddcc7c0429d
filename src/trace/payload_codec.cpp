#include "trace/payload_codec.h"

namespace barracuda::trace {

void PayloadEncoder::put_string(std::string_view text) {
  if (text.size() > kMaxStringBytes) {
    throw TraceFormatError("trace writer: string of " + std::to_string(text.size()) + " bytes exceeds the " +
                           std::to_string(kMaxStringBytes) + "-byte limit");
  }
  put(static_cast<uint32_t>(text.size()));
  bytes_.append(text);
}

std::string PayloadDecoder::get_string(std::string_view field) {
  const auto size = get<uint32_t>(field);
  if (size > kMaxStringBytes) fail(std::string{field} + " length " + std::to_string(size) + " exceeds the limit");
  return std::string{take(size, field)};
}

void PayloadDecoder::check_count(uint64_t count, size_t min_bytes_each, std::string_view field) const {
  if (count > rest_.size() / min_bytes_each) {
    fail(std::string{field} + " " + std::to_string(count) + " cannot fit in the " + std::to_string(rest_.size()) +
         " bytes left");
  }
}

void PayloadDecoder::expect_end() const {
  if (!rest_.empty()) fail(std::to_string(rest_.size()) + " unexpected trailing bytes");
}

void PayloadDecoder::fail(std::string_view problem) const {
  throw TraceFormatError("trace: " + what_ + ": " + std::string{problem});
}

std::string_view PayloadDecoder::take(size_t size, std::string_view field) {
  if (size > rest_.size()) fail("truncated " + std::string{field});
  std::string_view taken = rest_.substr(0, size);
  rest_.remove_prefix(size);
  return taken;
}

}  // namespace barracuda::trace
