// Logs block barriers, warp syncs and cluster barriers before they execute, fences after they
// completed (barracuda/record_view.h, SyncRole: that keeps the sync-ticket order causal). In kernels
// whose global memory the device may check, block barriers also tell LogBlockEvent, before and after,
// and a recognised grid sync's arrival tells GridSyncArrival (grid_syncs.h).
#include <optional>

#include "barracuda/barrier_count.h"
#include "barracuda/record_view.h"
#include "ptx/passes/pass_context.h"

namespace barracuda::ptx::passes {
namespace {

struct SyncEvent {
  RecordOp op;
  uint8_t space_sem = 0;
  std::optional<Operand> payload;  // -> RecordHeader::base
  std::optional<Operand> count;    // -> RecordHeader::stride
};

MemoryScope fence_scope(Scope scope) {
  switch (scope) {
    case Scope::Cta: return MemoryScope::kCta;
    case Scope::Cluster: return MemoryScope::kCluster;
    case Scope::Sys: return MemoryScope::kSystem;
    case Scope::Gpu:
    case Scope::None: break;
  }
  return MemoryScope::kGpu;
}

std::optional<Operand> operand_at(const Instruction& instruction, size_t index) {
  if (index >= instruction.operands.size()) return std::nullopt;
  return instruction.operands[index];
}

// bar{.sync,.arrive,.red} / barrier{...}: bar.red carries its destination first.
SyncEvent block_barrier(const Instruction& instruction) {
  RecordOp op = instruction.has_modifier("arrive") ? RecordOp::kBarrierArrive : RecordOp::kBarrier;
  size_t first = instruction.has_modifier("red") ? 1 : 0;
  std::optional<Operand> count;
  // bar.red has a trailing predicate operand; the thread count, when present, precedes it.
  size_t operands_without_predicate = instruction.operands.size() - (instruction.has_modifier("red") ? 1 : 0);
  if (operands_without_predicate > first + 1) count = operand_at(instruction, first + 1);
  return {op, 0, operand_at(instruction, first), count};
}

std::optional<SyncEvent> sync_event(const Instruction& instruction) {
  const auto legacy_fence = [](MemoryScope scope) {
    return pack_space_sem(MemorySpace::kGlobal, barracuda::MemorySemantics::kLegacy, scope);
  };
  switch (instruction.opcode) {
    case Opcode::Membar:  // the parser decodes membar.{cta,gl,sys} scopes
      if (instruction.has_modifier("proxy")) return std::nullopt;
      return SyncEvent{RecordOp::kFence, legacy_fence(fence_scope(instruction.scope)), std::nullopt, std::nullopt};
    case Opcode::Fence: {
      // Proxy and mbarrier-init fences order other proxies, not generic accesses between threads.
      bool sc = instruction.has_modifier("sc");
      if (!sc && !instruction.has_modifier("acq_rel")) return std::nullopt;
      auto sem = sc ? barracuda::MemorySemantics::kSeqCst : barracuda::MemorySemantics::kAcqRel;
      return SyncEvent{RecordOp::kFence, pack_space_sem(MemorySpace::kGlobal, sem, fence_scope(instruction.scope)),
                       std::nullopt, std::nullopt};
    }
    case Opcode::Bar:
      if (instruction.has_modifier("warp")) {
        return SyncEvent{RecordOp::kWarpSync, 0, operand_at(instruction, 0), std::nullopt};
      }
      return block_barrier(instruction);
    case Opcode::Barrier:
      if (instruction.has_modifier("cluster")) {
        ClusterBarrierPayload payload{};
        if (instruction.has_modifier("wait")) {
          payload = kClusterBarrierWait;
        } else if (instruction.has_modifier("relaxed")) {
          payload = kClusterBarrierRelaxed;
        }
        return SyncEvent{RecordOp::kClusterBarrier, 0, Operand::integer(payload), std::nullopt};
      }
      return block_barrier(instruction);
    default: return std::nullopt;
  }
}

}  // namespace

void log_synchronization(PassContext& context, const std::vector<StatementIterator>& instructions) {
  for (StatementIterator position : instructions) {
    const Instruction& instruction = std::get<Instruction>(*position);
    if (context.checks_global_on_device && context.grid_syncs.is_arrival(instruction)) {
      const uint32_t site = context.sites.add(SiteKind::Synchronization, context.function, instruction);
      context.calls.call_before(position, RuntimeFunction::GridSyncArrival, {{ScalarType::B32, Operand::integer(site)}},
                                instruction.debug_location);
      ++context.statistics.synchronizations;
      continue;
    }
    std::optional<SyncEvent> event = sync_event(instruction);
    if (!event) continue;
    uint32_t site = context.sites.add(SiteKind::Synchronization, context.function, instruction);
    DebugLocation location = instruction.debug_location;
    position = unguard(context, position);
    // A fence passes its thread's last read: its sync ticket's location bucket (record_view.h).
    Operand payload = event->payload ? context.calls.widen_to_64(position, *event->payload, 0, location)
                      : event->op == RecordOp::kFence ? context.calls.last_read()
                                                      : Operand::integer(0);
    Operand count = event->count.value_or(Operand::integer(0));
    const bool after = sync_role(event->op, event->space_sem) == SyncRole::kAcquire;
    context.calls.call_before(after ? std::next(position) : position, RuntimeFunction::LogSync,
                              {{ScalarType::B32, Operand::integer(site)},
                               {ScalarType::B32, Operand::integer(static_cast<int64_t>(event->op))},
                               {ScalarType::B32, Operand::integer(event->space_sem)},
                               {ScalarType::B64, payload},
                               {ScalarType::B32, count}},
                              location);
    if (event->op == RecordOp::kBarrier && context.checks_global_on_device) {
      // Where the launch counts its barriers on the device: the arrival, and right after the barrier
      // whether the lanes were let through before the block completed it (barracuda/barrier_count.h).
      for (const auto& [at, block_event] : {std::pair{position, BlockEvent::kArrive}, {std::next(position), BlockEvent::kPass}}) {
        context.calls.call_before(at, RuntimeFunction::LogBlockEvent,
                                  {{ScalarType::B32, Operand::integer(site)},
                                   {ScalarType::B32, Operand::integer(static_cast<int64_t>(block_event))}},
                                  location);
      }
    }
    ++context.statistics.synchronizations;
  }
}

}  // namespace barracuda::ptx::passes
