#include "ptx/passes/shared_checkable_kernels.h"

namespace barracuda::ptx::passes {
namespace {

bool word_sized(const Instruction& instruction) {
  const uint32_t bytes = access_bytes(instruction);
  return bytes == 4 || bytes == 8 || bytes == 16;
}

bool allows_shared_check(const Instruction& instruction) {
  switch (instruction.opcode) {
    case Opcode::Atom:
    case Opcode::Red:
      // Shared atomics are checked on the device too (atomic-plain pairs race, atomic pairs do not);
      // a generic one is not: its space is known only at run time, and the device classifies loads
      // and stores only.
      if (instruction.space == StateSpace::Generic) return false;
      return instruction.space != StateSpace::Shared || word_sized(instruction);
    case Opcode::Ld:
    case Opcode::Ldu:
    case Opcode::St: return !may_be_shared(instruction.space) || (weak_access(instruction) && word_sized(instruction));
    default: return true;
  }
}

bool shared_check_sees(const Instruction& instruction) {
  switch (instruction.opcode) {
    case Opcode::Ld:
    case Opcode::St: return may_be_shared(instruction.space);
    case Opcode::Atom:
    case Opcode::Red: return instruction.space == StateSpace::Shared;
    default: return false;
  }
}

}  // namespace

SharedCheckableKernels::SharedCheckableKernels(const Module& module, uint32_t first_site_id)
    : BarrierOnlyKernels(module, first_site_id, {allows_shared_check, shared_check_sees}) {}

}  // namespace barracuda::ptx::passes
