#pragma once
// Bounds-checked access to untrusted bytes: every read names what it reads so that a short buffer
// yields a FormatError saying which field ran past the end, and where.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>

#include "fatbin/error.h"

namespace barracuda::fatbin {

class ByteView {
 public:
  // `origin` is the offset of bytes[0] in the caller's frame, so errors report absolute offsets.
  explicit ByteView(std::span<const std::byte> bytes, std::uint64_t origin = 0) : bytes_(bytes), origin_(origin) {}

  std::size_t size() const { return bytes_.size(); }
  std::uint64_t origin() const { return origin_; }
  std::span<const std::byte> bytes() const { return bytes_; }

  // The `length` bytes at `offset`, as a view whose origin is their absolute offset.
  ByteView slice(std::uint64_t offset, std::uint64_t length, const std::string& what) const {
    require(offset, length, what);
    return ByteView(bytes_.subspan(offset, length), origin_ + offset);
  }

  template <typename T>
  T read(std::uint64_t offset, const std::string& what) const {
    static_assert(std::is_trivially_copyable_v<T>);
    require(offset, sizeof(T), what);
    T value;
    std::memcpy(&value, bytes_.data() + offset, sizeof(T));
    return value;
  }

  // Text of `length` bytes at `offset`, cut at the first NUL.
  std::string text(std::uint64_t offset, std::uint64_t length, const std::string& what) const;

  [[noreturn]] void fail(std::uint64_t offset, const std::string& message) const {
    throw FormatError(origin_ + offset, message);
  }

 private:
  void require(std::uint64_t offset, std::uint64_t length, const std::string& what) const {
    if (offset > bytes_.size() || length > bytes_.size() - offset) {
      fail(offset, what + " (" + std::to_string(length) + " bytes) runs past the end of the " +
                       std::to_string(bytes_.size()) + "-byte buffer");
    }
  }

  std::span<const std::byte> bytes_;
  std::uint64_t origin_;
};

}  // namespace barracuda::fatbin
