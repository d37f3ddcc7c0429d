#include "ptx/passes/shared_checkable_kernels.h"

#include "barracuda/shared_check.h"
#include "ptx/passes/call_graph.h"

namespace barracuda::ptx::passes {
namespace {

bool orders_memory(MemorySemantics semantics) {
  return semantics == MemorySemantics::Acquire || semantics == MemorySemantics::Release ||
         semantics == MemorySemantics::AcqRel || semantics == MemorySemantics::SeqCst;
}

bool may_be_shared(StateSpace space) { return space == StateSpace::Shared || space == StateSpace::Generic; }

// `bar.sync 0` / `barrier.sync[.aligned] 0`: every thread of the block, barrier 0.
bool full_block_barrier(const Instruction& instruction) {
  if (instruction.has_modifier("arrive") || instruction.has_modifier("red") || instruction.has_modifier("warp") ||
      instruction.has_modifier("cluster")) {
    return false;
  }
  return instruction.operands.size() == 1 && instruction.operands[0].kind == OperandKind::Integer &&
         instruction.operands[0].value == 0;
}

bool word_sized(const Instruction& instruction) {
  const uint32_t bytes = bit_width(instruction.type()) * instruction.vector_width / 8;
  return bytes == 4 || bytes == 8 || bytes == 16;
}

bool plain_word_access(const Instruction& instruction) {
  if (instruction.semantics != MemorySemantics::None && instruction.semantics != MemorySemantics::Weak) return false;
  return word_sized(instruction);
}

bool keeps_shared_checkable(const Instruction& instruction) {
  switch (instruction.opcode) {
    case Opcode::Bar:
    case Opcode::Barrier: return full_block_barrier(instruction);
    case Opcode::Fence:
    case Opcode::Membar:
    case Opcode::StAsync:
    case Opcode::RedAsync:
    case Opcode::Cp:
    case Opcode::Mbarrier:
    case Opcode::Mapa:
    case Opcode::Getctarank:
    case Opcode::Multimem:
    case Opcode::Tensormap:
    case Opcode::Griddepcontrol:
    case Opcode::Wgmma:
    case Opcode::Other: return false;
    case Opcode::Atom:
    case Opcode::Red:
      // Shared atomics are checked on the device too (atomic-plain pairs race, atomic pairs do not);
      // a generic one is not: its space is known only at run time, and the device classifies loads
      // and stores only.
      if (instruction.space == StateSpace::Generic || instruction.space == StateSpace::SharedCluster ||
          orders_memory(instruction.semantics)) {
        return false;
      }
      return instruction.space != StateSpace::Shared || word_sized(instruction);
    case Opcode::Ld:
    case Opcode::Ldu:
    case Opcode::St:
      if (instruction.space == StateSpace::SharedCluster || orders_memory(instruction.semantics)) return false;
      return !may_be_shared(instruction.space) || plain_word_access(instruction);
    default: return true;
  }
}

bool body_keeps_shared_checkable(const Function& function) {
  for (const Statement& statement : function.body) {
    const auto* instruction = std::get_if<Instruction>(&statement);
    if (instruction && !keeps_shared_checkable(*instruction)) return false;
  }
  return true;
}

// A load or store the device would check: without one, a kernel gains nothing from the check (and
// would pay for its block slot).
bool may_access_shared(const Function& function) {
  for (const Statement& statement : function.body) {
    const auto* instruction = std::get_if<Instruction>(&statement);
    if (instruction && (instruction->opcode == Opcode::Ld || instruction->opcode == Opcode::St) &&
        may_be_shared(instruction->space)) {
      return true;
    }
    if (instruction && (instruction->opcode == Opcode::Atom || instruction->opcode == Opcode::Red) &&
        instruction->space == StateSpace::Shared) {
      return true;
    }
  }
  return false;
}

// An upper bound of the site ids the passes give the module: no instruction takes more than three
// (an access, or a branch with its reconvergence point, and a kernel's entry).
uint64_t site_bound(const Module& module, uint32_t first_site_id) {
  uint64_t instructions = 0;
  for (const Function* function : module.functions()) {
    for (const Statement& statement : function->body) instructions += std::holds_alternative<Instruction>(statement);
  }
  return first_site_id + 3 * instructions + 3;
}

}  // namespace

SharedCheckableKernels::SharedCheckableKernels(const Module& module, uint32_t first_site_id) {
  if (site_bound(module, first_site_id) >= kSharedCheckMaxSites) return;
  const CallGraph graph(module);
  checkable_ = functions_of_kernels_where(graph, [&](const std::unordered_set<const Function*>& closure) {
    bool accesses_shared = false;
    for (const Function* function : closure) {
      if (graph.calls_unknown.contains(function) || !body_keeps_shared_checkable(*function)) return false;
      accesses_shared = accesses_shared || may_access_shared(*function);
    }
    return accesses_shared;
  });
}

}  // namespace barracuda::ptx::passes
