#include "ptx/passes/global_checkable_kernels.h"

namespace barracuda::ptx::passes {
namespace {

bool may_be_global(StateSpace space) { return space == StateSpace::Global || space == StateSpace::Generic; }

bool allows_global_check(const Instruction& instruction) {
  switch (instruction.opcode) {
    case Opcode::Atom:
    case Opcode::Red: return !may_be_global(instruction.space);
    case Opcode::Ld:
    case Opcode::Ldu: return !may_be_global(instruction.space) || weak_access(instruction);
    case Opcode::St:
      return !may_be_global(instruction.space) || (weak_access(instruction) && access_bytes(instruction) >= 4);
    case Opcode::Sust:
    case Opcode::Sured: return false;
    default: return true;
  }
}

bool global_check_sees(const Instruction& instruction) {
  return (instruction.opcode == Opcode::Ld || instruction.opcode == Opcode::St) && may_be_global(instruction.space);
}

}  // namespace

GlobalCheckableKernels::GlobalCheckableKernels(const Module& module, uint32_t first_site_id)
    : BarrierOnlyKernels(module, first_site_id, {allows_global_check, global_check_sees}) {}

}  // namespace barracuda::ptx::passes
