#include "ptx/opcode.h"

#include <array>
#include <unordered_map>

namespace barracuda::ptx {
namespace {

constexpr std::array kSpellings{
#define BARRACUDA_PTX_OPCODE_SPELLING(name, spelling) std::string_view{spelling},
    BARRACUDA_PTX_OPCODES(BARRACUDA_PTX_OPCODE_SPELLING)
#undef BARRACUDA_PTX_OPCODE_SPELLING
};

const std::unordered_map<std::string_view, Opcode>& opcodes_by_spelling() {
  static const auto table = [] {
    std::unordered_map<std::string_view, Opcode> map;
    for (size_t i = 0; i < kSpellings.size(); ++i) map.emplace(kSpellings[i], static_cast<Opcode>(i));
    return map;
  }();
  return table;
}

Opcode find(std::string_view spelling) {
  const auto& table = opcodes_by_spelling();
  auto it = table.find(spelling);
  return it == table.end() ? Opcode::Other : it->second;
}

}  // namespace

Opcode opcode_of_mnemonic(std::string_view mnemonic) {
  size_t first_dot = mnemonic.find('.');
  if (first_dot != std::string_view::npos) {
    // "st.async", "red.async": the second word names a different instruction.
    Opcode two_words = find(mnemonic.substr(0, mnemonic.find('.', first_dot + 1)));
    if (two_words != Opcode::Other) return two_words;
  }
  return find(mnemonic.substr(0, first_dot));
}

std::string_view to_string(Opcode opcode) {
  auto i = static_cast<size_t>(opcode);
  return i < kSpellings.size() ? kSpellings[i] : std::string_view{};
}

}  // namespace barracuda::ptx
