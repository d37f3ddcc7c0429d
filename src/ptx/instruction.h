#pragma once
// A PTX instruction. The mnemonic ("atom.global.acq_rel.gpu.add.u32") is the single source of truth
// for printing and is kept verbatim, so opcodes and modifiers the IR does not understand round-trip;
// the decoded fields below are derived from it by decode_mnemonic().
#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "ptx/opcode.h"
#include "ptx/operand.h"
#include "ptx/qualifiers.h"
#include "ptx/source_position.h"

namespace barracuda::ptx {

// `@%p` / `@!%p` in front of an instruction; an empty predicate means "always executes".
struct Guard {
  std::string_view predicate;
  bool negated = false;
  bool present() const { return !predicate.empty(); }
  friend bool operator==(const Guard&, const Guard&) = default;
};

struct Instruction {
  std::string_view mnemonic;  // opcode plus modifier chain, verbatim, e.g. "ld.global.v2.u32"
  Guard guard;
  std::vector<Operand> operands;
  DebugLocation debug_location;  // from the closest preceding `.loc` in the function
  // Where the code was written by the user: the end of the `.loc ... inlined_at` chain that starts at
  // `debug_location` (each inlined_at names an earlier `.loc`). Equal to debug_location when the
  // instruction was not inlined.
  DebugLocation outermost_location;
  SourcePosition position;       // where the instruction starts in the PTX text

  // Decoded from `mnemonic` (decode_mnemonic fills them in; the parser always calls it).
  Opcode opcode = Opcode::Other;
  StateSpace space = StateSpace::Generic;         // first space modifier (destination for cp.*)
  StateSpace second_space = StateSpace::Generic;  // second space modifier (the source of cp.*)
  SemanticsQualifier semantics = SemanticsQualifier::None;
  Scope scope = Scope::None;
  uint8_t vector_width = 1;  // .v2/.v4/.v8 -> 2/4/8
  uint8_t type_count = 0;
  std::array<ScalarType, 4> type_list{};  // type modifiers in mnemonic order (cvt.f32.s32: f32, s32)

  std::span<const ScalarType> types() const { return {type_list.data(), type_count}; }
  // The last type modifier: the operand type of ld/st/atom/red/mov (ScalarType::None if none).
  ScalarType type() const { return type_count ? type_list[type_count - 1] : ScalarType::None; }
  // Whether `word` (without the dot) is one of the modifiers: has_modifier("cas").
  bool has_modifier(std::string_view word) const;
  // The modifiers after the opcode in order, without dots: "ld.global.u32" -> {"global", "u32"}.
  std::vector<std::string_view> modifiers() const;
};

// Sets every decoded field of `instruction` from its mnemonic. `membar.{cta,gl,sys}` decodes as
// what the ISA defines it to be: semantics SeqCst with scope Cta/Gpu/Sys (like fence.sc).
void decode_mnemonic(Instruction& instruction);

}  // namespace barracuda::ptx
