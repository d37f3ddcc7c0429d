#include "ptx/passes/global_checkable_kernels.h"

namespace barracuda::ptx::passes {
namespace {

bool may_be_global(StateSpace space) { return space == StateSpace::Global || space == StateSpace::Generic; }

// .gpu or .sys (written, or .gpu by default for atom/red): a scope that covers every thread of the
// grid, so two such strong accesses never race (a .cta or .cluster one across blocks would be a scoped
// race, which the shadow does not name).
bool covers_the_grid(const Instruction& instruction) {
  return instruction.scope == Scope::Gpu || instruction.scope == Scope::Sys ||
         (instruction.scope == Scope::None && instruction.opcode != Opcode::Ld);
}

// An atom/red the device checks: of a whole word or more, without ordering semantics (those the
// barrier-only rule already refuses), of a scope that covers the grid.
bool checkable_atomic(const Instruction& instruction) {
  const bool unordered =
      instruction.semantics == SemanticsQualifier::None || instruction.semantics == SemanticsQualifier::Relaxed;
  return unordered && covers_the_grid(instruction) && access_bytes(instruction) >= 4;
}

// A load the device checks: weak, or relaxed of a scope that covers the grid (a strong read).
bool checkable_load(const Instruction& instruction) {
  return weak_access(instruction) ||
         (instruction.semantics == SemanticsQualifier::Relaxed && covers_the_grid(instruction));
}

bool allows_global_check(const Instruction& instruction) {
  switch (instruction.opcode) {
    case Opcode::Atom:
    case Opcode::Red: return !may_be_global(instruction.space) || checkable_atomic(instruction);
    case Opcode::Ld:
    case Opcode::Ldu: return !may_be_global(instruction.space) || checkable_load(instruction);
    case Opcode::St:
      return !may_be_global(instruction.space) || (weak_access(instruction) && access_bytes(instruction) >= 4);
    case Opcode::Sust:
    case Opcode::Sured: return false;
    default: return true;
  }
}

bool global_check_sees(const Instruction& instruction) {
  return (instruction.opcode == Opcode::Ld || instruction.opcode == Opcode::St || instruction.opcode == Opcode::Atom ||
          instruction.opcode == Opcode::Red) &&
         may_be_global(instruction.space);
}

}  // namespace

GlobalCheckableKernels::GlobalCheckableKernels(const Module& module, uint32_t first_site_id)
    : BarrierOnlyKernels(module, first_site_id, {allows_global_check, global_check_sees}) {}

}  // namespace barracuda::ptx::passes
