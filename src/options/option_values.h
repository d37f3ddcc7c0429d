#pragma once
// The value kinds an option can have. Each kind names its C++ type, parses text into it (nullopt plus
// a reason on bad input), formats it back (so defaults print in help and options survive a round trip
// through BARRACUDA_OPTIONS), and says what it expects for error messages.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "options/block_order.h"
#include "options/warp_model.h"

namespace barracuda::options {

struct TextValue {  // paths; empty means "not set"
  using type = std::string;
  static constexpr std::string_view kExpected = "text";
  static std::optional<type> parse(std::string_view text);
  static std::string format(const type& value);
};

struct BoolValue {
  using type = bool;
  static constexpr std::string_view kExpected = "0, 1, true, false, yes or no";
  static std::optional<type> parse(std::string_view text);
  static std::string format(const type& value);
};

struct CountValue {
  using type = uint64_t;
  static constexpr std::string_view kExpected = "a non-negative decimal integer";
  static std::optional<type> parse(std::string_view text);
  static std::string format(const type& value);
};

struct ByteSizeValue {  // a positive byte count, optionally with a binary K, M or G suffix
  using type = uint64_t;
  static constexpr std::string_view kExpected = "a positive byte count such as 4096, 512K, 64M or 1G";
  static std::optional<type> parse(std::string_view text);
  static std::string format(const type& value);
};

struct ExitCodeValue {
  using type = int;
  static constexpr std::string_view kExpected = "an exit code from 1 to 255";
  static std::optional<type> parse(std::string_view text);
  static std::string format(const type& value);
};

struct RegexValue {  // an ECMAScript regular expression, checked to compile; empty means "match all"
  using type = std::string;
  static constexpr std::string_view kExpected = "a valid ECMAScript regular expression";
  static std::optional<type> parse(std::string_view text);
  static std::string format(const type& value);
};

struct WarpModelValue {
  using type = WarpModel;
  static constexpr std::string_view kExpected = "its or lockstep";
  static std::optional<type> parse(std::string_view text);
  static std::string format(const type& value);
};

struct BlockOrderValue {
  using type = BlockOrder;
  static constexpr std::string_view kExpected = "natural, reverse or shuffle";
  static std::optional<type> parse(std::string_view text);
  static std::string format(const type& value);
};

}  // namespace barracuda::options
