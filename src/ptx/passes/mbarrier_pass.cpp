// Logs mbarrier arrivals before they execute and successful waits after they return: an arrive
// releases what the thread did to the waiters of the phase, a wait that saw the phase complete
// acquires it. A failed try_wait/test_wait acquires nothing, so its record is skipped by a branch
// on the wait's result predicate.
#include "barracuda/record.h"
#include "ptx/passes/pass_context.h"

namespace barracuda::ptx::passes {
namespace {

bool is_arrive(const Instruction& instruction) {
  return instruction.has_modifier("arrive") || instruction.has_modifier("arrive_drop");
}

bool is_wait(const Instruction& instruction) {
  return instruction.has_modifier("try_wait") || instruction.has_modifier("test_wait");
}

// Logs `instruction` (an mbarrier operation) as `op` with a call inserted before `position`.
void log_mbarrier(PassContext& context, const Instruction& instruction, StatementIterator position, RecordOp op) {
  uint32_t site = context.sites.add(SiteKind::Synchronization, context.function, instruction);
  DebugLocation location = instruction.debug_location;
  Operand address = context.calls.materialize_address(position, instruction.operands[1], location);
  context.calls.call_before(position, RuntimeFunction::LogSync,
                            {{ScalarType::B32, Operand::integer(site)},
                             {ScalarType::B32, Operand::integer(static_cast<int64_t>(op))},
                             {ScalarType::B32, Operand::integer(0)},
                             {ScalarType::B64, address},
                             {ScalarType::B32, Operand::integer(0)}},
                            location);
  ++context.statistics.synchronizations;
}

}  // namespace

void log_mbarriers(PassContext& context, const std::vector<StatementIterator>& instructions) {
  for (StatementIterator position : instructions) {
    const Instruction& instruction = std::get<Instruction>(*position);
    if (instruction.opcode != Opcode::Mbarrier || instruction.operands.size() < 2 ||
        !instruction.operands[1].is_address()) {
      continue;
    }
    if (is_arrive(instruction)) {
      StatementIterator arrive = unguard(context, position);
      log_mbarrier(context, std::get<Instruction>(*arrive), arrive, RecordOp::kMbarrierArrive);
    } else if (is_wait(instruction) && instruction.operands[0].is_register()) {
      // `wait p, [mbar], ...;` then `@!p bra skip; <log>; skip:` (inside the guard's branch if any).
      StatementIterator wait = unguard(context, position);
      const std::string_view done = std::get<Instruction>(*wait).operands[0].text;
      StatementIterator after = std::next(wait);
      const std::string_view skip = context.editor.fresh_label();
      Instruction branch = context.editor.make_instruction("bra", {Operand::symbol(skip)});
      branch.guard = {done, true};
      branch.debug_location = std::get<Instruction>(*wait).debug_location;
      StatementIterator label = context.editor.insert_before(after, Label{skip, {}});
      context.editor.insert_before(label, std::move(branch));
      log_mbarrier(context, std::get<Instruction>(*wait), label, RecordOp::kMbarrierWait);
    }
  }
}

}  // namespace barracuda::ptx::passes
