#include "ptx/passes/read_only_parameters.h"

#include <string_view>

namespace barracuda::ptx::passes {
namespace {

bool may_be_global(StateSpace space) { return space == StateSpace::Global || space == StateSpace::Generic; }

// Calls that write no memory of the application: device printf's buffer and a failed assert.
bool harmless_call(const Instruction& instruction) {
  for (const Operand& operand : instruction.operands) {
    if (operand.text == "vprintf" || operand.text == "__assertfail") return true;
  }
  return false;
}

// Whether `instruction` may write global memory through an address address_parameters() cannot
// follow (it only follows ld/st/atom/red).
bool untracked_global_write(const Instruction& instruction) {
  switch (instruction.opcode) {
    case Opcode::Cp:  // cp.async.bulk / cp.reduce.async.bulk (and their tensor forms) may target global
      return instruction.has_modifier("bulk") || instruction.has_modifier("reduce");
    case Opcode::Wmma: return instruction.has_modifier("store");
    case Opcode::Multimem:
    case Opcode::Tensormap:
    case Opcode::Sust:
    case Opcode::Sured:
    case Opcode::Discard:
    case Opcode::Other: return true;
    case Opcode::Call: return !harmless_call(instruction);
    default: return false;
  }
}

bool writes_through_address(const Instruction& instruction) {
  return (instruction.opcode == Opcode::St || instruction.opcode == Opcode::Atom || instruction.opcode == Opcode::Red) &&
         may_be_global(instruction.space);
}

}  // namespace

std::unordered_set<uint32_t> read_only_parameters(const Function& kernel,
                                                  const std::unordered_map<const Instruction*, uint32_t>& origins) {
  if (!kernel.is_entry) return {};
  std::unordered_set<uint32_t> loaded, written;
  for (const Statement& statement : kernel.body) {
    const auto* instruction = std::get_if<Instruction>(&statement);
    if (!instruction) continue;
    if (untracked_global_write(*instruction)) return {};
    const auto origin = origins.find(instruction);
    if (writes_through_address(*instruction)) {
      if (origin == origins.end()) return {};  // a write nobody can say where it lands
      written.insert(origin->second);
    } else if (instruction->opcode == Opcode::Ld && origin != origins.end()) {
      loaded.insert(origin->second);
    }
  }
  std::unordered_set<uint32_t> read_only;
  for (const uint32_t parameter : loaded) {
    if (!written.contains(parameter)) read_only.insert(parameter);
  }
  return read_only;
}

}  // namespace barracuda::ptx::passes
