#include "ptx/qualifiers.h"

#include <array>
#include <utility>

namespace barracuda::ptx {
namespace {

template <typename Enum, size_t N>
using SpellingTable = std::array<std::pair<Enum, std::string_view>, N>;

constexpr SpellingTable<StateSpace, 11> kStateSpaces{{
    {StateSpace::Reg, "reg"},
    {StateSpace::Sreg, "sreg"},
    {StateSpace::Const, "const"},
    {StateSpace::Global, "global"},
    {StateSpace::Local, "local"},
    {StateSpace::Param, "param"},
    {StateSpace::Shared, "shared"},
    {StateSpace::Shared, "shared::cta"},
    {StateSpace::SharedCluster, "shared::cluster"},
    {StateSpace::Tex, "tex"},
    {StateSpace::Generic, ""},
}};

constexpr SpellingTable<SemanticsQualifier, 9> kSemantics{{
    {SemanticsQualifier::Weak, "weak"},
    {SemanticsQualifier::Relaxed, "relaxed"},
    {SemanticsQualifier::Acquire, "acquire"},
    {SemanticsQualifier::Release, "release"},
    {SemanticsQualifier::AcqRel, "acq_rel"},
    {SemanticsQualifier::SeqCst, "sc"},
    {SemanticsQualifier::Volatile, "volatile"},
    {SemanticsQualifier::Mmio, "mmio"},
    {SemanticsQualifier::None, ""},
}};

constexpr SpellingTable<Scope, 5> kScopes{{
    {Scope::Cta, "cta"},
    {Scope::Cluster, "cluster"},
    {Scope::Gpu, "gpu"},
    {Scope::Sys, "sys"},
    {Scope::None, ""},
}};

constexpr SpellingTable<ScalarType, 26> kTypes{{
    {ScalarType::Pred, "pred"},   {ScalarType::B8, "b8"},       {ScalarType::B16, "b16"},
    {ScalarType::B32, "b32"},     {ScalarType::B64, "b64"},     {ScalarType::B128, "b128"},
    {ScalarType::U8, "u8"},       {ScalarType::U16, "u16"},     {ScalarType::U32, "u32"},
    {ScalarType::U64, "u64"},     {ScalarType::S8, "s8"},       {ScalarType::S16, "s16"},
    {ScalarType::S32, "s32"},     {ScalarType::S64, "s64"},     {ScalarType::F16, "f16"},
    {ScalarType::F16x2, "f16x2"}, {ScalarType::BF16, "bf16"},   {ScalarType::BF16x2, "bf16x2"},
    {ScalarType::TF32, "tf32"},   {ScalarType::F32, "f32"},     {ScalarType::F64, "f64"},
    {ScalarType::E4M3, "e4m3"},   {ScalarType::E5M2, "e5m2"},   {ScalarType::E4M3x2, "e4m3x2"},
    {ScalarType::E5M2x2, "e5m2x2"}, {ScalarType::None, ""},
}};

constexpr SpellingTable<Linkage, 5> kLinkages{{
    {Linkage::Extern, ".extern"},
    {Linkage::Visible, ".visible"},
    {Linkage::Weak, ".weak"},
    {Linkage::Common, ".common"},
    {Linkage::None, ""},
}};

// Tables end with their None value spelled "", which must not match a real word.
template <typename Enum, size_t N>
std::optional<Enum> lookup(const SpellingTable<Enum, N>& table, std::string_view word) {
  if (word.empty()) return std::nullopt;
  for (const auto& [value, spelling] : table)
    if (spelling == word) return value;
  return std::nullopt;
}

template <typename Enum, size_t N>
std::string_view spelling(const SpellingTable<Enum, N>& table, Enum value) {
  for (const auto& [candidate, text] : table)
    if (candidate == value) return text;
  return {};
}

}  // namespace

std::optional<StateSpace> state_space_from_modifier(std::string_view word) { return lookup(kStateSpaces, word); }
std::optional<SemanticsQualifier> semantics_from_modifier(std::string_view word) { return lookup(kSemantics, word); }
std::optional<Scope> scope_from_modifier(std::string_view word) { return lookup(kScopes, word); }
std::optional<ScalarType> scalar_type_from_modifier(std::string_view word) { return lookup(kTypes, word); }
std::optional<Linkage> linkage_from_directive(std::string_view directive) { return lookup(kLinkages, directive); }

std::string_view to_string(StateSpace space) { return spelling(kStateSpaces, space); }
std::string_view to_string(SemanticsQualifier semantics) { return spelling(kSemantics, semantics); }
std::string_view to_string(Scope scope) { return spelling(kScopes, scope); }
std::string_view to_string(ScalarType type) { return spelling(kTypes, type); }
std::string_view to_string(Linkage linkage) { return spelling(kLinkages, linkage); }

uint32_t bit_width(ScalarType type) {
  switch (type) {
    case ScalarType::None: return 0;
    case ScalarType::Pred: return 1;
    case ScalarType::B8: case ScalarType::U8: case ScalarType::S8:
    case ScalarType::E4M3: case ScalarType::E5M2: return 8;
    case ScalarType::B16: case ScalarType::U16: case ScalarType::S16: case ScalarType::F16:
    case ScalarType::BF16: case ScalarType::E4M3x2: case ScalarType::E5M2x2: return 16;
    case ScalarType::B32: case ScalarType::U32: case ScalarType::S32: case ScalarType::F32:
    case ScalarType::F16x2: case ScalarType::BF16x2: case ScalarType::TF32: return 32;
    case ScalarType::B64: case ScalarType::U64: case ScalarType::S64: case ScalarType::F64: return 64;
    case ScalarType::B128: return 128;
  }
  return 0;
}

}  // namespace barracuda::ptx
