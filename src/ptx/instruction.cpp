#include "ptx/instruction.h"

namespace barracuda::ptx {
namespace {

// Calls `visit(word)` for each dot-separated modifier after the opcode word.
template <typename Visit>
void for_each_modifier(std::string_view mnemonic, Visit visit) {
  size_t start = mnemonic.find('.');
  while (start != std::string_view::npos) {
    size_t end = mnemonic.find('.', start + 1);
    visit(mnemonic.substr(start + 1, end == std::string_view::npos ? end : end - start - 1));
    start = end;
  }
}

std::optional<uint8_t> vector_width_of(std::string_view word) {
  if (word == "v2") return 2;
  if (word == "v4") return 4;
  if (word == "v8") return 8;
  return std::nullopt;
}

}  // namespace

bool Instruction::has_modifier(std::string_view word) const {
  bool found = false;
  for_each_modifier(mnemonic, [&](std::string_view modifier) { found = found || modifier == word; });
  return found;
}

std::vector<std::string_view> Instruction::modifiers() const {
  std::vector<std::string_view> words;
  for_each_modifier(mnemonic, [&](std::string_view modifier) { words.push_back(modifier); });
  return words;
}

void decode_mnemonic(Instruction& instruction) {
  instruction.opcode = opcode_of_mnemonic(instruction.mnemonic);
  instruction.space = StateSpace::Generic;
  instruction.second_space = StateSpace::Generic;
  instruction.semantics = SemanticsQualifier::None;
  instruction.scope = Scope::None;
  instruction.vector_width = 1;
  instruction.type_count = 0;
  instruction.type_list = {};
  if (instruction.opcode == Opcode::Membar) instruction.semantics = SemanticsQualifier::SeqCst;
  int spaces_seen = 0;
  for_each_modifier(instruction.mnemonic, [&](std::string_view word) {
    if (auto space = state_space_from_modifier(word)) {
      (spaces_seen++ == 0 ? instruction.space : instruction.second_space) = *space;
    } else if (auto semantics = semantics_from_modifier(word)) {
      instruction.semantics = *semantics;
    } else if (auto scope = scope_from_modifier(word)) {
      instruction.scope = *scope;
    } else if (word == "gl" && instruction.opcode == Opcode::Membar) {
      instruction.scope = Scope::Gpu;
    } else if (auto width = vector_width_of(word)) {
      instruction.vector_width = *width;
    } else if (auto type = scalar_type_from_modifier(word)) {
      if (instruction.type_count < instruction.type_list.size())
        instruction.type_list[instruction.type_count++] = *type;
    }
  });
}

}  // namespace barracuda::ptx
