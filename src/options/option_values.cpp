#include "options/option_values.h"

#include <charconv>
#include <limits>
#include <regex>

namespace barracuda::options {
namespace {

std::optional<uint64_t> parse_decimal(std::string_view text) {
  uint64_t value = 0;
  const char* end = text.data() + text.size();
  auto [stop, error] = std::from_chars(text.data(), end, value, 10);
  if (text.empty() || error != std::errc{} || stop != end) return std::nullopt;
  return value;
}

// Regexes come from users (and fuzzers): bound the length so std::regex's recursive compiler cannot
// exhaust the stack.
constexpr size_t kMaxRegexLength = 1024;

// libstdc++'s regex compiler reads the number of a backreference (\12) or of a repetition ({3,4}) into
// a long with no overflow check (undefined behaviour: options_fuzzer found it), and copies a repeated
// atom once per count. Kernel-name patterns need neither large backreferences nor large counts.
bool has_oversized_number(std::string_view pattern) {
  constexpr size_t kMaxBackreferenceDigits = 2;
  constexpr size_t kMaxCountDigits = 3;  // repetition counts up to 999
  bool in_braces = false;
  for (size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '\\' && i + 1 < pattern.size()) {
      size_t digits = 0;
      while (i + 1 + digits < pattern.size() && pattern[i + 1 + digits] >= '0' && pattern[i + 1 + digits] <= '9') ++digits;
      if (digits > kMaxBackreferenceDigits) return true;
      ++i;  // the escaped character is never a brace
      continue;
    }
    if (c == '{') in_braces = true;
    if (c == '}') in_braces = false;
    if (in_braces && c >= '0' && c <= '9') {
      size_t digits = 0;
      while (i + digits < pattern.size() && pattern[i + digits] >= '0' && pattern[i + digits] <= '9') ++digits;
      if (digits > kMaxCountDigits) return true;
      i += digits - 1;
    }
  }
  return false;
}

}  // namespace

std::optional<std::string> TextValue::parse(std::string_view text) { return std::string{text}; }
std::string TextValue::format(const std::string& value) { return value; }

std::optional<bool> BoolValue::parse(std::string_view text) {
  if (text == "1" || text == "true" || text == "yes") return true;
  if (text == "0" || text == "false" || text == "no") return false;
  return std::nullopt;
}
std::string BoolValue::format(const bool& value) { return value ? "1" : "0"; }

std::optional<uint64_t> CountValue::parse(std::string_view text) { return parse_decimal(text); }
std::string CountValue::format(const uint64_t& value) { return std::to_string(value); }

std::optional<uint64_t> ByteSizeValue::parse(std::string_view text) {
  unsigned shift = 0;
  if (!text.empty()) {
    switch (text.back()) {
      case 'K': shift = 10; break;
      case 'M': shift = 20; break;
      case 'G': shift = 30; break;
      default: break;
    }
  }
  if (shift != 0) text.remove_suffix(1);
  const auto value = parse_decimal(text);
  if (!value || *value > (std::numeric_limits<uint64_t>::max() >> shift)) return std::nullopt;
  return *value << shift;
}
std::string ByteSizeValue::format(const uint64_t& value) {
  if (value == 0) return "0";
  for (auto [shift, suffix] : {std::pair{30u, 'G'}, std::pair{20u, 'M'}, std::pair{10u, 'K'}}) {
    if (value % (uint64_t{1} << shift) == 0) return std::to_string(value >> shift) + suffix;
  }
  return std::to_string(value);
}

std::optional<int> ExitCodeValue::parse(std::string_view text) {
  const auto value = parse_decimal(text);
  if (!value || *value < 1 || *value > 255) return std::nullopt;
  return static_cast<int>(*value);
}
std::string ExitCodeValue::format(const int& value) { return std::to_string(value); }

std::optional<std::string> RegexValue::parse(std::string_view text) {
  if (text.size() > kMaxRegexLength || has_oversized_number(text)) return std::nullopt;
  // Compiled from a std::string, not the view: libstdc++ 12's scanner peeks one character past a
  // trailing '(' and relies on the string's terminator being there.
  std::string pattern{text};
  try {
    std::regex compiled{pattern, std::regex::ECMAScript};
  } catch (const std::regex_error&) {
    return std::nullopt;
  }
  return pattern;
}
std::string RegexValue::format(const std::string& value) { return value; }

std::optional<BlockOrder> BlockOrderValue::parse(std::string_view text) { return value_of(kBlockOrderNames, text); }
std::string BlockOrderValue::format(const BlockOrder& value) { return std::string{name_of(kBlockOrderNames, value)}; }
std::optional<WarpModel> WarpModelValue::parse(std::string_view text) { return value_of(kWarpModelNames, text); }
std::string WarpModelValue::format(const WarpModel& value) { return std::string{name_of(kWarpModelNames, value)}; }

}  // namespace barracuda::options
