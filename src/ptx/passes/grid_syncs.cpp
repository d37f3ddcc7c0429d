#include "ptx/passes/grid_syncs.h"

#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ptx/passes/barrier_only_kernels.h"

namespace barracuda::ptx::passes {
namespace {

bool is_workspace_source(std::string_view name) { return name == "%envreg1" || name == "%envreg2"; }

// The registers that hold the grid's barrier workspace (or its halves) wherever they are read: the
// greatest set in which every instruction writing a member moves, converts or bit-inserts members (or
// %envreg1/%envreg2), or adds an immediate to a member.
class WorkspaceRegisters {
 public:
  explicit WorkspaceRegisters(const Function& function) {
    std::unordered_map<std::string_view, bool> every_write_qualifies;
    for (const Statement& statement : function.body) {
      const auto* instruction = std::get_if<Instruction>(&statement);
      if (!instruction || instruction->operands.empty() || instruction->operands[0].kind != OperandKind::Register) continue;
      const std::optional<std::vector<std::string_view>> sources = register_sources(*instruction);
      auto [it, added] = every_write_qualifies.try_emplace(instruction->operands[0].text, sources.has_value());
      if (!sources) it->second = false;
      if (sources) writes_.push_back({instruction->operands[0].text, *sources});
    }
    for (const auto& [name, qualifies] : every_write_qualifies) {
      if (qualifies) members_.insert(name);
    }
    for (bool changed = true; changed;) {
      changed = false;
      for (const Write& write : writes_) {
        if (!members_.contains(write.destination)) continue;
        for (std::string_view source : write.sources) {
          if (!is_workspace_source(source) && !members_.contains(source)) {
            members_.erase(write.destination);
            changed = true;
            break;
          }
        }
      }
    }
  }

  bool contains(std::string_view name) const { return members_.contains(name); }

 private:
  struct Write {
    std::string_view destination;
    std::vector<std::string_view> sources;
  };

  // The registers an instruction of a qualifying form reads (which must all be members), or nothing
  // when its form does not qualify.
  static std::optional<std::vector<std::string_view>> register_sources(const Instruction& instruction) {
    const auto& operands = instruction.operands;
    const auto is_register = [](const Operand& operand) { return operand.kind == OperandKind::Register; };
    const auto is_integer = [](const Operand& operand) { return operand.kind == OperandKind::Integer; };
    if (instruction.guard.present()) return std::nullopt;
    switch (instruction.opcode) {
      case Opcode::Mov:
      case Opcode::Cvt:
        if (operands.size() == 2 && is_register(operands[1])) return std::vector{operands[1].text};
        return std::nullopt;
      case Opcode::Bfi:
        if (operands.size() == 5 && is_register(operands[1]) && is_register(operands[2]) && is_integer(operands[3]) &&
            is_integer(operands[4])) {
          return std::vector{operands[1].text, operands[2].text};
        }
        return std::nullopt;
      case Opcode::Add:
        if (operands.size() == 3 && is_register(operands[1]) && is_integer(operands[2])) {
          return std::vector{operands[1].text};
        }
        return std::nullopt;
      default: return std::nullopt;
    }
  }

  std::vector<Write> writes_;
  std::unordered_set<std::string_view> members_;
};

// Instructions that neither touch memory nor synchronise nor leave the function: what may stand
// between the parts of the pattern.
bool register_only(const Instruction& instruction) {
  switch (instruction.opcode) {
    case Opcode::Add:
    case Opcode::Sub:
    case Opcode::Mul:
    case Opcode::Mad:
    case Opcode::Mul24:
    case Opcode::Mad24:
    case Opcode::Neg:
    case Opcode::Min:
    case Opcode::Max:
    case Opcode::Rem:
    case Opcode::Div:
    case Opcode::Popc:
    case Opcode::Clz:
    case Opcode::Bfe:
    case Opcode::Bfi:
    case Opcode::Set:
    case Opcode::Setp:
    case Opcode::Selp:
    case Opcode::And:
    case Opcode::Or:
    case Opcode::Xor:
    case Opcode::Not:
    case Opcode::Cnot:
    case Opcode::Lop3:
    case Opcode::Shl:
    case Opcode::Shr:
    case Opcode::Shf:
    case Opcode::Prmt:
    case Opcode::Mov:
    case Opcode::Cvt:
    case Opcode::Bra: return true;
    default: return false;
  }
}

bool same_address(const Operand& a, const Operand& b) {
  return a.kind == OperandKind::Address && b.kind == OperandKind::Address && a.text == b.text && a.value == b.value &&
         a.elements.empty() && b.elements.empty();
}

bool is_arrival_access(const Instruction& instruction, const WorkspaceRegisters& workspace) {
  return instruction.opcode == Opcode::Atom && instruction.has_modifier("add") &&
         instruction.semantics == SemanticsQualifier::Release && instruction.scope == Scope::Gpu &&
         (instruction.space == StateSpace::Generic || instruction.space == StateSpace::Global) &&
         !instruction.guard.present() && instruction.operands.size() == 3 &&
         instruction.operands[1].kind == OperandKind::Address && workspace.contains(instruction.operands[1].text);
}

bool is_spin_load(const Instruction& instruction, const Operand& address) {
  return instruction.opcode == Opcode::Ld && instruction.semantics == SemanticsQualifier::Acquire &&
         instruction.scope == Scope::Gpu &&
         (instruction.space == StateSpace::Generic || instruction.space == StateSpace::Global) &&
         !instruction.guard.present() && instruction.operands.size() == 2 && same_address(instruction.operands[1], address);
}

// From the arrival back to the block barrier before it: register-only instructions, no label.
bool barrier_before(const StatementList& body, StatementList::const_iterator arrival) {
  for (auto it = arrival; it != body.begin();) {
    --it;
    if (std::holds_alternative<Label>(*it)) return false;
    const auto* instruction = std::get_if<Instruction>(&*it);
    if (!instruction) continue;
    if (full_block_barrier(*instruction)) return !instruction->guard.present();
    if (!register_only(*instruction)) return false;
  }
  return false;
}

// From the arrival on: the spin loop at the next label, then the block barrier after it. Returns the
// spin's load.
const Instruction* spin_then_barrier(const StatementList& body, StatementList::const_iterator arrival) {
  const Operand& address = std::get<Instruction>(*arrival).operands[1];
  auto it = std::next(arrival);
  for (; it != body.end() && !std::holds_alternative<Label>(*it); ++it) {
    const auto* instruction = std::get_if<Instruction>(&*it);
    if (instruction && !register_only(*instruction)) return nullptr;
  }
  if (it == body.end()) return nullptr;
  const std::string_view spin_label = std::get<Label>(*it).name;
  const Instruction* spin = nullptr;
  for (++it; it != body.end(); ++it) {
    if (std::holds_alternative<Label>(*it)) return nullptr;
    const auto* instruction = std::get_if<Instruction>(&*it);
    if (!instruction) continue;
    if (!spin && is_spin_load(*instruction, address)) {
      spin = instruction;
      continue;
    }
    if (!register_only(*instruction)) return nullptr;
    if (instruction->opcode == Opcode::Bra && instruction->guard.present() && !instruction->operands.empty() &&
        instruction->operands[0].text == spin_label) {
      break;
    }
  }
  if (!spin || it == body.end()) return nullptr;
  for (++it; it != body.end(); ++it) {
    const auto* instruction = std::get_if<Instruction>(&*it);
    if (!instruction) continue;
    if (full_block_barrier(*instruction)) return instruction->guard.present() ? nullptr : spin;
    if (!register_only(*instruction) || instruction->opcode == Opcode::Bra) return nullptr;
  }
  return nullptr;
}

}  // namespace

GridSyncs::GridSyncs(const Module& module) {
  for (const Function* function : module.functions()) {
    std::optional<WorkspaceRegisters> workspace;
    for (auto it = function->body.begin(); it != function->body.end(); ++it) {
      const auto* instruction = std::get_if<Instruction>(&*it);
      if (!instruction || instruction->opcode != Opcode::Atom) continue;
      if (!workspace) workspace.emplace(*function);
      if (!is_arrival_access(*instruction, *workspace) || !barrier_before(function->body, it)) continue;
      const Instruction* spin = spin_then_barrier(function->body, it);
      if (!spin) continue;
      arrivals_.insert(instruction);
      spins_.insert(spin);
      functions_.insert(function);
    }
  }
}

}  // namespace barracuda::ptx::passes
