#include "ptx/passes/legacy_isa_upgrade.h"

#include <algorithm>
#include <string>
#include <tuple>

namespace barracuda::ptx::passes {
namespace {

// nvJitLink compiles each module as relocatable code, which ptxas accepts from ISA 3.1 on.
constexpr VersionDirective kRelocatableIsa{3, 1};
// The first target whose functions take `.param` arguments (the device runtime's calling convention).
constexpr std::string_view kFirstTargetWithParamCalls = "sm_20";

bool older_than(const VersionDirective& version, const VersionDirective& other) {
  return std::tie(version.major, version.minor) < std::tie(other.major, other.minor);
}

bool is_sm1x(std::string_view target) {
  return target == "sm_10" || target == "sm_11" || target == "sm_12" || target == "sm_13";
}

template <typename Item>
Item* find_item(Module& module) {
  for (ModuleItem& item : module.items) {
    if (auto* found = std::get_if<Item>(&item)) return found;
  }
  return nullptr;
}

bool is_rounding(std::string_view word) { return word == "rn" || word == "rz" || word == "rm" || word == "rp"; }

// Whether a sm_1x target flushes this instruction's single-precision subnormals without being told.
// Measured with ptxas 13: cvt involving a .f64 keeps them (the ISA's "cvt with a 64-bit destination
// did not flush up to 1.4", and the f64-to-f32 direction too); a .f32 cvt flushes.
bool flushes_subnormals_on_sm1x(const Instruction& instruction) {
  switch (instruction.opcode) {
    case Opcode::Add: case Opcode::Sub: case Opcode::Mul: case Opcode::Mad: case Opcode::Div:
    case Opcode::Abs: case Opcode::Neg: case Opcode::Min: case Opcode::Max: case Opcode::Rcp:
    case Opcode::Sqrt: case Opcode::Rsqrt: case Opcode::Sin: case Opcode::Cos: case Opcode::Lg2:
    case Opcode::Ex2: case Opcode::Setp: case Opcode::Set: case Opcode::Slct:
      return instruction.type() == ScalarType::F32;  // set/slct: the compared type is the last one
    case Opcode::Cvt: {
      auto types = instruction.types();
      return std::ranges::find(types, ScalarType::F32) != types.end() &&
             std::ranges::find(types, ScalarType::F64) == types.end();
    }
    default: return false;
  }
}

// The sm_20 spelling of a sm_1x single-precision instruction: `.ftz` written out (before `.sat` or the
// first type, where the ISA puts it) and mad.f32 as the fused `mad.rn` a sm_1x target compiles it to.
void spell_out_sm1x_float_semantics(Module& module, Instruction& instruction) {
  bool add_ftz = flushes_subnormals_on_sm1x(instruction) && !instruction.has_modifier("ftz");
  const std::vector<std::string_view> modifiers = instruction.modifiers();
  bool add_rounding = instruction.opcode == Opcode::Mad && instruction.type() == ScalarType::F32 &&
                      std::ranges::none_of(modifiers, is_rounding);
  if (!add_ftz && !add_rounding) return;
  std::string mnemonic(to_string(instruction.opcode));
  if (add_rounding) mnemonic += ".rn";
  for (std::string_view modifier : modifiers) {
    if (add_ftz && (modifier == "sat" || scalar_type_from_modifier(modifier))) {
      mnemonic += ".ftz";
      add_ftz = false;
    }
    mnemonic += '.';
    mnemonic += modifier;
  }
  instruction.mnemonic = module.intern(mnemonic);
  decode_mnemonic(instruction);
}

void raise_sm1x_target(Module& module, TargetDirective& target) {
  std::erase(target.targets, std::string_view("map_f64_to_f32"));
  std::ranges::replace_if(target.targets, is_sm1x, kFirstTargetWithParamCalls);
  for (Function* function : module.definitions()) {
    for (Instruction* instruction : function->instructions()) spell_out_sm1x_float_semantics(module, *instruction);
  }
}

void raise_version(Module& module, VersionDirective& version) {
  version = kRelocatableIsa;
  // Before ISA 2.3 the address size came from ptxas's command line; the runtime is 64-bit.
  if (find_item<AddressSizeDirective>(module) != nullptr) return;
  auto target = std::ranges::find_if(module.items, [](const ModuleItem& item) {
    return std::holds_alternative<TargetDirective>(item);
  });
  if (target != module.items.end()) module.items.insert(std::next(target), AddressSizeDirective{64});
}

// ISA 1.5 replaced the `.tex` state space by `.texref` variables in `.global`.
void declare_textures_as_texref(ModuleItem& item) {
  auto* variable = std::get_if<VariableDeclaration>(&item);
  if (variable == nullptr || variable->space != StateSpace::Tex) return;
  variable->space = StateSpace::Global;
  variable->type_name = "texref";
  variable->type = ScalarType::None;
}

// ISA 2.0 renamed .maxnctapersm to .minnctapersm (the meaning did not change); 2.1 rejects the old name.
void rename_maxnctapersm(Module& module, Function& function) {
  constexpr std::string_view kOldName = ".maxnctapersm";
  for (std::string_view& directive : function.directives) {
    if (directive.starts_with(kOldName)) {
      directive = module.intern(".minnctapersm" + std::string(directive.substr(kOldName.size())));
    }
  }
}

}  // namespace

void upgrade_legacy_isa(Module& module) {
  if (const auto* address_size = find_item<AddressSizeDirective>(module); address_size && address_size->bits != 64) {
    throw UnsupportedPtx(".address_size " + std::to_string(address_size->bits) +
                         ": the device runtime linked into instrumented modules is 64-bit");
  }
  VersionDirective* version = find_item<VersionDirective>(module);
  TargetDirective* target = find_item<TargetDirective>(module);
  const bool before_relocatable_isa = version != nullptr && older_than(*version, kRelocatableIsa);
  const bool targets_sm1x = target != nullptr && std::ranges::any_of(target->targets, is_sm1x);
  if (!before_relocatable_isa && !targets_sm1x) return;
  if (targets_sm1x) raise_sm1x_target(module, *target);
  for (ModuleItem& item : module.items) {
    declare_textures_as_texref(item);
    if (auto* function = std::get_if<Function>(&item)) rename_maxnctapersm(module, *function);
  }
  if (before_relocatable_isa) raise_version(module, *version);
}

}  // namespace barracuda::ptx::passes
