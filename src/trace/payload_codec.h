#pragma once
// Section payloads are built and parsed through these two: fixed structs are copied raw (format.h
// documents them), strings are length-prefixed. The decoder checks every read against the payload's end.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include "trace/format.h"
#include "trace/trace_error.h"

namespace barracuda::trace {

class PayloadEncoder {
 public:
  template <typename T>
  void put(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    bytes_.append(reinterpret_cast<const char*>(&value), sizeof value);
  }
  void put_string(std::string_view text);
  const std::string& bytes() const { return bytes_; }

 private:
  std::string bytes_;
};

class PayloadDecoder {
 public:
  // `what` names the section in error messages, e.g. "module section at offset 16".
  PayloadDecoder(std::string_view payload, std::string what) : rest_(payload), what_(std::move(what)) {}

  template <typename T>
  T get(std::string_view field) {
    static_assert(std::is_trivially_copyable_v<T>);
    T value;
    std::memcpy(&value, take(sizeof value, field).data(), sizeof value);
    return value;
  }
  std::string get_string(std::string_view field);
  std::string_view rest() const { return rest_; }
  // Rejects counts that could not fit in what is left, before anything is allocated for them.
  void check_count(uint64_t count, size_t min_bytes_each, std::string_view field) const;
  void expect_end() const;
  [[noreturn]] void fail(std::string_view problem) const;

 private:
  std::string_view take(size_t size, std::string_view field);

  std::string_view rest_;
  std::string what_;
};

}  // namespace barracuda::trace
