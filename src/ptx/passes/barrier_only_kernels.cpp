#include "ptx/passes/barrier_only_kernels.h"

#include "barracuda/shared_check.h"
#include "ptx/passes/call_graph.h"
#include "ptx/passes/grid_syncs.h"

namespace barracuda::ptx::passes {
namespace {

bool orders_memory(SemanticsQualifier semantics) {
  return semantics == SemanticsQualifier::Acquire || semantics == SemanticsQualifier::Release ||
         semantics == SemanticsQualifier::AcqRel || semantics == SemanticsQualifier::SeqCst;
}

bool synchronises_only_at_block_barriers(const Instruction& instruction) {
  if (orders_memory(instruction.semantics) || instruction.space == StateSpace::SharedCluster) return false;
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
    default: return true;
  }
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

bool may_be_shared(StateSpace space) { return space == StateSpace::Shared || space == StateSpace::Generic; }

bool full_block_barrier(const Instruction& instruction) {
  if ((instruction.opcode != Opcode::Bar && instruction.opcode != Opcode::Barrier) || instruction.has_modifier("arrive") ||
      instruction.has_modifier("red") || instruction.has_modifier("warp") || instruction.has_modifier("cluster")) {
    return false;
  }
  return instruction.operands.size() == 1 && instruction.operands[0].kind == OperandKind::Integer &&
         instruction.operands[0].value == 0;
}

bool weak_access(const Instruction& instruction) {
  return instruction.semantics == SemanticsQualifier::None || instruction.semantics == SemanticsQualifier::Weak;
}

uint32_t access_bytes(const Instruction& instruction) {
  return bit_width(instruction.type()) * instruction.vector_width / 8;
}

BarrierOnlyKernels::BarrierOnlyKernels(const Module& module, uint32_t first_site_id, const DeviceCheckRule& rule) {
  if (site_bound(module, first_site_id) >= kSharedCheckMaxSites) return;
  const CallGraph graph(module);
  const GridSyncs grid_syncs(module);
  functions_ = functions_of_kernels_where(graph, [&](const std::unordered_set<const Function*>& closure) {
    bool has_seen_access = false;
    bool has_grid_sync = false;
    for (const Function* function : closure) {
      if (graph.calls_unknown.contains(function)) return false;
      has_grid_sync = has_grid_sync || grid_syncs.in(*function);
      for (const Statement& statement : function->body) {
        const auto* instruction = std::get_if<Instruction>(&statement);
        if (!instruction || grid_syncs.contains(*instruction)) continue;
        if (!synchronises_only_at_block_barriers(*instruction) || !rule.allows(*instruction)) return false;
        has_seen_access = has_seen_access || rule.sees(*instruction);
      }
    }
    if (has_seen_access && has_grid_sync) {
      for (const Function* function : closure) {
        if (function->is_entry) grid_sync_kernels_.insert(function);
      }
    }
    return has_seen_access;
  });
}

}  // namespace barracuda::ptx::passes
