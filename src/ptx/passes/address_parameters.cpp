#include "ptx/passes/address_parameters.h"

#include <string_view>

#include "ptx/qualifiers.h"

namespace barracuda::ptx::passes {
namespace {

constexpr int32_t kNoOrigin = -1;

class RegisterOrigins {
 public:
  explicit RegisterOrigins(const Function& kernel) {
    for (uint32_t i = 0; i < kernel.parameters.size(); ++i) parameter_index_.emplace(kernel.parameters[i].name, i);
  }

  // One pass over the body; true when an origin changed (run to a fixed point).
  bool pass(const Function& kernel) {
    bool changed = false;
    for (const Statement& statement : kernel.body) {
      const auto* instruction = std::get_if<Instruction>(&statement);
      if (!instruction || instruction->operands.empty()) continue;
      const Operand& destination = instruction->operands[0];
      if (destination.kind != OperandKind::Register || writes_memory(*instruction)) continue;
      changed |= define(destination.text, derived(*instruction));
    }
    return changed;
  }

  int32_t of(const Operand& operand) const {
    if (operand.kind != OperandKind::Register && operand.kind != OperandKind::Address) return kNoOrigin;
    auto found = origins_.find(operand.text);
    return found == origins_.end() || !found->second.consistent ? kNoOrigin : found->second.parameter;
  }

 private:
  struct Origin {
    int32_t parameter = kNoOrigin;
    bool consistent = true;
  };

  static bool writes_memory(const Instruction& instruction) {
    return instruction.opcode == Opcode::St || instruction.opcode == Opcode::Red;
  }

  // The parameter a register written by `instruction` derives from, or kNoOrigin.
  int32_t derived(const Instruction& instruction) const {
    const auto& operands = instruction.operands;
    switch (instruction.opcode) {
      case Opcode::Ld:
        if (instruction.space == StateSpace::Param && bit_width(instruction.type()) == 64 && operands.size() == 2 &&
            operands[1].kind == OperandKind::Address && operands[1].value == 0) {
          auto found = parameter_index_.find(operands[1].text);
          if (found != parameter_index_.end()) return static_cast<int32_t>(found->second);
        }
        return kNoOrigin;
      case Opcode::Mov:
      case Opcode::Cvta: return operands.size() == 2 ? of(operands[1]) : kNoOrigin;
      case Opcode::Add:
      case Opcode::Sub: {
        if (operands.size() != 3) return kNoOrigin;
        const int32_t left = of(operands[1]);
        const int32_t right = of(operands[2]);
        if (instruction.opcode == Opcode::Sub) return right == kNoOrigin ? left : kNoOrigin;
        return left == kNoOrigin ? right : right == kNoOrigin ? left : kNoOrigin;
      }
      case Opcode::Mad: {  // mad.wide / mad.lo: the addend is the pointer
        if (operands.size() != 4 || of(operands[1]) != kNoOrigin || of(operands[2]) != kNoOrigin) return kNoOrigin;
        return of(operands[3]);
      }
      default: return kNoOrigin;
    }
  }

  bool define(std::string_view name, int32_t parameter) {
    auto [it, added] = origins_.try_emplace(name, Origin{parameter, parameter != kNoOrigin});
    if (added) return true;
    Origin& origin = it->second;
    if (!origin.consistent || origin.parameter == parameter) return false;
    origin.consistent = false;
    return true;
  }

  std::unordered_map<std::string_view, uint32_t> parameter_index_;
  std::unordered_map<std::string_view, Origin> origins_;
};

// The address operand of a memory instruction that can reach global memory, or null.
const Operand* global_address(const Instruction& instruction) {
  if (instruction.space != StateSpace::Global && instruction.space != StateSpace::Generic) return nullptr;
  size_t index = 0;
  switch (instruction.opcode) {
    case Opcode::Ld:
    case Opcode::Atom: index = 1; break;
    case Opcode::St:
    case Opcode::Red: index = 0; break;
    default: return nullptr;
  }
  if (instruction.operands.size() <= index || instruction.operands[index].kind != OperandKind::Address) return nullptr;
  return &instruction.operands[index];
}

}  // namespace

std::unordered_map<const Instruction*, uint32_t> address_parameters(const Function& kernel) {
  std::unordered_map<const Instruction*, uint32_t> result;
  if (!kernel.is_entry || kernel.parameters.empty()) return result;
  RegisterOrigins origins(kernel);
  // Each pass can only turn origins inconsistent after the first definitions: a few passes suffice.
  // Origins that have not settled after them are not trusted (read_only_parameters.h relies on them).
  bool settled = false;
  for (int pass = 0; pass < 8 && !settled; ++pass) settled = !origins.pass(kernel);
  if (!settled) return result;
  for (const Statement& statement : kernel.body) {
    const auto* instruction = std::get_if<Instruction>(&statement);
    if (!instruction) continue;
    const Operand* address = global_address(*instruction);
    if (!address) continue;
    const int32_t parameter = origins.of(*address);
    if (parameter != kNoOrigin) result.emplace(instruction, static_cast<uint32_t>(parameter));
  }
  return result;
}

}  // namespace barracuda::ptx::passes
