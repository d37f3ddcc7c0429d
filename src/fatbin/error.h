#pragma once
// Every malformed input the fat-binary reader meets ends in one FormatError: where (byte offset from
// the start of what was handed to the reader) and what was wrong.
#include <cstdint>
#include <stdexcept>
#include <string>

namespace barracuda::fatbin {

class FormatError : public std::runtime_error {
 public:
  FormatError(std::uint64_t offset, const std::string& message);

  std::uint64_t offset() const { return offset_; }
  // The message without the "offset 0x..: " prefix that what() carries.
  const std::string& detail() const { return detail_; }

 private:
  std::uint64_t offset_;
  std::string detail_;
};

// "0x1f": how offsets, magics and flags appear in messages and in `barracuda dump`.
std::string hex(std::uint64_t value);

}  // namespace barracuda::fatbin
