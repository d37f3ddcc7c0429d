// Logs warp entry at the start of each kernel (registering the grid with the launch the kernel's
// launch-slot global names) and warp exit before each of its ret/exit instructions. In kernels
// whose shared memory the device checks, the warp takes its block's shadow slot after its entry
// record and lets go of it before each exit record (device/shared_checker.cuh). In kernels whose global
// memory the device may check, each exit also tells LogBlockEvent (barracuda/barrier_count.h).
#include "barracuda/barrier_count.h"
#include "barracuda/device_launch.h"
#include "ptx/passes/pass_context.h"

namespace barracuda::ptx::passes {

void log_kernel_entry(PassContext& context, const std::vector<StatementIterator>& instructions) {
  if (!context.function.is_entry || instructions.empty()) return;
  // Before the first label too: a loop back to the kernel's first block must not log entry again.
  auto start = context.function.body.begin();
  while (!std::holds_alternative<Instruction>(*start) && !std::holds_alternative<Label>(*start)) ++start;
  const Instruction& first = std::get<Instruction>(*instructions.front());
  uint32_t site = context.sites.add(SiteKind::Entry, context.function, first);
  if (context.child_token_offsets.contains(context.function.name)) {
    // A child copy (device_launch_copies.h): the launch and block ids its parent gave it.
    const Operand token = Operand::reg(context.editor.fresh_register(ScalarType::B64));
    context.editor.insert_before(start, context.editor.make_instruction(
                                            "ld.param.u64", {token, Operand::address(BARRACUDA_CHILD_TOKEN_PARAMETER)}));
    context.calls.call_before(start, RuntimeFunction::LogChildEntry,
                              {{ScalarType::B32, Operand::integer(site)}, {ScalarType::B64, token}}, first.debug_location);
  } else {
    // The launch this grid belongs to: the host sets the kernel's global in the launch's stream.
    const std::string slot_global = launch_slot_global(context.function.name);
    const Operand slot = context.calls.load_global_u32(start, slot_global, first.debug_location);
    context.calls.call_before(start, RuntimeFunction::LogEntry,
                              {{ScalarType::B32, Operand::integer(site)}, {ScalarType::B32, slot}}, first.debug_location);
  }
  if (context.checks_shared_on_device) {
    context.calls.call_before(start, RuntimeFunction::SharedCheckBegin, {}, first.debug_location);
  }
  ++context.statistics.kernels;
}

void log_kernel_exits(PassContext& context, const std::vector<StatementIterator>& instructions) {
  if (!context.function.is_entry) return;
  for (StatementIterator position : instructions) {
    const Instruction& instruction = std::get<Instruction>(*position);
    if (instruction.opcode != Opcode::Ret && instruction.opcode != Opcode::Exit) continue;
    uint32_t site = context.sites.add(SiteKind::Exit, context.function, instruction);
    DebugLocation location = instruction.debug_location;
    position = unguard(context, position);
    if (context.checks_shared_on_device) {
      context.calls.call_before(position, RuntimeFunction::SharedCheckEnd, {}, location);
    }
    if (context.checks_global_on_device) {  // where the launch counts its barriers (barracuda/barrier_count.h)
      context.calls.call_before(position, RuntimeFunction::LogBlockEvent,
                                {{ScalarType::B32, Operand::integer(site)},
                                 {ScalarType::B32, Operand::integer(static_cast<int64_t>(BlockEvent::kExit))}},
                                location);
    }
    context.calls.call_before(position, RuntimeFunction::LogExit, {{ScalarType::B32, Operand::integer(site)}},
                              location);
    ++context.statistics.kernel_exits;
  }
}

}  // namespace barracuda::ptx::passes
