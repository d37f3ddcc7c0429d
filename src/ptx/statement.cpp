#include "ptx/statement.h"

#include <charconv>

namespace barracuda::ptx {

bool RegisterDeclaration::declares(std::string_view reg) const {
  for (const Name& declared : names) {
    if (declared.range == 0) {
      if (declared.name == reg) return true;
      continue;
    }
    if (!reg.starts_with(declared.name)) continue;
    std::string_view digits = reg.substr(declared.name.size());
    uint32_t number = 0;
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
    bool canonical = !digits.empty() && (digits.size() == 1 || digits[0] != '0');
    if (error == std::errc{} && end == digits.data() + digits.size() && canonical && number < declared.range)
      return true;
  }
  return false;
}

}  // namespace barracuda::ptx
