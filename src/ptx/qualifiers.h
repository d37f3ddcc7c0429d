#pragma once
// The decoded PTX qualifiers that matter to analyses: state space, memory-model semantics and scope,
// scalar types, and declaration linkage. Each `*_from_modifier` takes one dot-free modifier
// ("global", "acq_rel", "u32") and returns nullopt when the word is not of that family.
#include <cstdint>
#include <optional>
#include <string_view>

namespace barracuda::ptx {

enum class StateSpace : uint8_t {
  Generic,        // no space qualifier: a generic address
  Reg,
  Sreg,
  Const,
  Global,
  Local,
  Param,
  Shared,         // .shared and .shared::cta
  SharedCluster,  // .shared::cluster (distributed shared memory)
  Tex,
};

// PTX memory-model semantics of a memory or fence instruction (ISA "Memory Consistency Model").
enum class SemanticsQualifier : uint8_t {
  None,  // not written: .weak for ld/st, .relaxed for atom/red, .acq_rel for fence
  Weak,
  Relaxed,
  Acquire,
  Release,
  AcqRel,
  SeqCst,  // fence.sc
  Volatile,
  Mmio,
};

enum class Scope : uint8_t {
  None,  // not written: .gpu for atom/red/fence, not applicable for weak accesses
  Cta,
  Cluster,
  Gpu,
  Sys,
};

enum class ScalarType : uint8_t {
  None,
  Pred,
  B8, B16, B32, B64, B128,
  U8, U16, U32, U64,
  S8, S16, S32, S64,
  F16, F16x2, BF16, BF16x2, TF32, F32, F64,
  E4M3, E5M2, E4M3x2, E5M2x2,
};

// Linkage of a module-level variable or function.
enum class Linkage : uint8_t { None, Extern, Visible, Weak, Common };

std::optional<StateSpace> state_space_from_modifier(std::string_view word);
std::optional<SemanticsQualifier> semantics_from_modifier(std::string_view word);
std::optional<Scope> scope_from_modifier(std::string_view word);
std::optional<ScalarType> scalar_type_from_modifier(std::string_view word);
std::optional<Linkage> linkage_from_directive(std::string_view directive);  // ".visible" etc.

// The PTX spelling without the dot ("shared::cluster", "acq_rel", "u32"); "" for the None values.
std::string_view to_string(StateSpace space);
std::string_view to_string(SemanticsQualifier semantics);
std::string_view to_string(Scope scope);
std::string_view to_string(ScalarType type);
std::string_view to_string(Linkage linkage);  // with the dot: ".visible"

// Width in bits (Pred: 1; packed pairs count both halves; None: 0).
uint32_t bit_width(ScalarType type);

}  // namespace barracuda::ptx
