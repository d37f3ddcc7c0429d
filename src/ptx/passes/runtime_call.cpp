#include "ptx/passes/runtime_call.h"

#include <string>

#include "barracuda/queue.h"

namespace barracuda::ptx::passes {
namespace {

struct EntryPoint {
  std::string_view name;
  std::vector<ScalarType> parameters;
};

// `(B64, B32)` of the list -> `{B64, B32}`.
#define BARRACUDA_BRACED(...) {__VA_ARGS__}

// In RuntimeFunction order: the device definition's name and its parameters' PTX types.
const std::vector<EntryPoint>& entry_points() {
  using enum ScalarType;
  static const std::vector<EntryPoint> kEntryPoints = {
#define BARRACUDA_RUNTIME_ENTRY(function, symbol, parameters, ptx_types) {#symbol, BARRACUDA_BRACED ptx_types},
#include "barracuda/runtime_entry_points.inc"
#undef BARRACUDA_RUNTIME_ENTRY
  };
  return kEntryPoints;
}
#undef BARRACUDA_BRACED

const EntryPoint& entry_point(RuntimeFunction function) { return entry_points()[static_cast<size_t>(function)]; }

VariableDeclaration param(Module& module, ScalarType type, std::string_view name) {
  VariableDeclaration declaration;
  declaration.space = StateSpace::Param;
  declaration.type = type;
  declaration.type_name = to_string(type);
  declaration.name = module.intern(name);
  return declaration;
}

std::string param_name(size_t index) { return "__bc_arg" + std::to_string(index); }

}  // namespace

std::string launch_slot_global(std::string_view kernel) {
  return std::string(BARRACUDA_LAUNCH_SLOT_PREFIX) + std::string(kernel);
}

void define_launch_slot_globals(Module& module) {
  auto first_function = module.items.begin();
  while (first_function != module.items.end() && !std::holds_alternative<Function>(*first_function)) ++first_function;
  std::vector<std::string_view> kernels;
  for (const Function* function : module.definitions()) {
    if (function->is_entry && !function->name.starts_with("__barracuda_")) kernels.push_back(function->name);
  }
  for (std::string_view kernel : kernels) {
    module.items.insert(first_function, u32_global(module, launch_slot_global(kernel), Linkage::Visible,
                                                   std::to_string(kNoLaunchSlot)));
  }
}

VariableDeclaration u32_global(Module& module, std::string_view name, Linkage linkage, std::string_view initializer) {
  VariableDeclaration global;
  global.linkage = linkage;
  global.space = StateSpace::Global;
  global.alignment = 4;
  global.type = ScalarType::U32;
  global.type_name = to_string(ScalarType::U32);
  global.name = module.intern(name);
  global.initializer = module.intern(initializer);
  return global;
}

void declare_runtime_functions(Module& module) {
  auto first_function = module.items.begin();
  while (first_function != module.items.end() && !std::holds_alternative<Function>(*first_function)) ++first_function;
  for (const EntryPoint& entry : entry_points()) {
    if (module.find_function(entry.name) != nullptr) continue;
    Function prototype;
    prototype.linkage = Linkage::Extern;
    prototype.name = entry.name;
    prototype.has_parameter_list = true;
    for (size_t i = 0; i < entry.parameters.size(); ++i) {
      prototype.parameters.push_back(param(module, entry.parameters[i], param_name(i)));
    }
    module.items.insert(first_function, std::move(prototype));
  }
}

uint32_t RuntimeCallBuilder::register_bits(std::string_view name) {
  if (auto found = register_bits_.find(name); found != register_bits_.end()) return found->second;
  uint32_t bits = 0;
  for (const Statement& statement : editor_.function().body) {
    const auto* declaration = std::get_if<RegisterDeclaration>(&statement);
    if (declaration && declaration->declares(name)) {
      bits = bit_width(declaration->type) * declaration->vector_width;
      break;
    }
  }
  register_bits_.emplace(name, bits);
  return bits;
}

std::string_view RuntimeCallBuilder::scratch(ScalarType type, int slot) {
  uint32_t key = static_cast<uint32_t>(type) << 8 | static_cast<uint32_t>(slot);
  if (auto found = scratch_.find(key); found != scratch_.end()) return found->second;
  std::string_view name = editor_.fresh_register(type);
  register_bits_.emplace(name, bit_width(type));
  scratch_.emplace(key, name);
  return name;
}

void RuntimeCallBuilder::emit(StatementIterator position, std::string_view mnemonic, std::vector<Operand> operands,
                              DebugLocation location) {
  Instruction instruction = editor_.make_instruction(mnemonic, std::move(operands));
  instruction.debug_location = location;
  editor_.insert_before(position, std::move(instruction));
}

Operand RuntimeCallBuilder::widen_to_64(StatementIterator position, const Operand& value, int slot,
                                        DebugLocation location) {
  if (!value.is_register()) return value;
  uint32_t bits = register_bits(value.text);
  Operand wide = Operand::reg(scratch(ScalarType::B64, slot));
  if (bits == 64) return value;
  // mov.bN first: the register may be a float or signed type, which cvt.u64.uN would reject.
  ScalarType narrow_type = bits == 16 ? ScalarType::B16 : ScalarType::B32;
  Operand narrow = Operand::reg(scratch(narrow_type, slot));
  emit(position, bits == 16 ? "mov.b16" : "mov.b32", {narrow, value}, location);
  emit(position, bits == 16 ? "cvt.u64.u16" : "cvt.u64.u32", {wide, narrow}, location);
  return wide;
}

Operand RuntimeCallBuilder::materialize_address(StatementIterator position, const Operand& address,
                                                DebugLocation location) {
  Operand result = Operand::reg(scratch(ScalarType::B64, 0));
  Operand base;
  if (register_bits(address.text) != 0) {
    base = widen_to_64(position, Operand::reg(address.text), 0, location);
    if (address.value == 0) return base;
  } else {
    // A variable (mov gives its address in its own state space) or an absolute integer address.
    bool is_integer = address.text.empty() || address.text[0] == '-' || (address.text[0] >= '0' && address.text[0] <= '9');
    std::string_view spelled = address.text.empty() ? std::string_view("0") : address.text;
    Operand source = is_integer ? Operand{OperandKind::Integer, false, spelled, 0, {}, false} : Operand::symbol(spelled);
    emit(position, "mov.u64", {result, source}, location);
    if (address.value == 0) return result;
    base = result;
  }
  emit(position, "add.s64", {result, base, Operand::integer(address.value)}, location);
  return result;
}

Operand RuntimeCallBuilder::save_address(StatementIterator position, const Operand& address, DebugLocation location) {
  Operand saved = Operand::reg(scratch(ScalarType::B64, 0));
  Operand value = materialize_address(position, address, location);
  if (value.text != saved.text) emit(position, "mov.b64", {saved, value}, location);
  return saved;
}

StatementIterator RuntimeCallBuilder::function_start() {
  Function& function = editor_.function();
  auto start = function.body.begin();
  while (start != function.body.end() && !std::holds_alternative<Instruction>(*start) &&
         !std::holds_alternative<Label>(*start)) {
    ++start;
  }
  return start;
}

Operand RuntimeCallBuilder::last_read() {
  if (last_read_) return *last_read_;
  last_read_ = Operand::reg(editor_.fresh_register(ScalarType::B64));
  register_bits_.emplace(last_read_->text, 64);
  // At the function's start, before its first label: every path to a fence passes it.
  emit(function_start(), "mov.b64", {*last_read_, Operand::integer(0)}, DebugLocation{});
  return *last_read_;
}

namespace {
// No site has this id (SiteTable ids are dense from the module's first).
constexpr int64_t kNoRepeatedSite = 0xFFFFFFFF;
}  // namespace

void RuntimeCallBuilder::filter_repeated_reads() {
  if (repeated_site_) return;
  repeated_site_ = Operand::reg(editor_.fresh_register(ScalarType::U32));
  repeated_address_ = Operand::reg(editor_.fresh_register(ScalarType::B64));
  repeated_value_ = Operand::reg(editor_.fresh_register(ScalarType::B64));
  register_bits_.emplace(repeated_site_->text, 32);
  register_bits_.emplace(repeated_address_->text, 64);
  register_bits_.emplace(repeated_value_->text, 64);
  const StatementIterator start = function_start();
  emit(start, "mov.u32", {*repeated_site_, Operand::integer(kNoRepeatedSite)}, DebugLocation{});
  emit(start, "mov.b64", {*repeated_address_, Operand::integer(0)}, DebugLocation{});
  emit(start, "mov.b64", {*repeated_value_, Operand::integer(0)}, DebugLocation{});
}

void RuntimeCallBuilder::forget_repeated_read(StatementIterator position, DebugLocation location) {
  if (repeated_site_) emit(position, "mov.u32", {*repeated_site_, Operand::integer(kNoRepeatedSite)}, location);
}

std::string_view RuntimeCallBuilder::begin_unless_repeated(StatementIterator position, uint32_t site,
                                                           const Operand& address, const std::optional<Operand>& value,
                                                           DebugLocation location) {
  const Operand repeated = Operand::reg(scratch(ScalarType::Pred, 0));
  emit(position, "setp.eq.u32", {repeated, *repeated_site_, Operand::integer(site)}, location);
  emit(position, "setp.eq.and.b64", {repeated, *repeated_address_, address, repeated}, location);
  if (value) emit(position, "setp.eq.and.b64", {repeated, *repeated_value_, *value, repeated}, location);
  const std::string_view skip = editor_.fresh_label();
  Instruction branch = editor_.make_instruction("bra", {Operand::symbol(skip)});
  branch.guard = {repeated.text, false};
  branch.debug_location = location;
  editor_.insert_before(position, std::move(branch));
  return skip;
}

void RuntimeCallBuilder::end_unless_repeated(StatementIterator position, std::string_view skip, uint32_t site,
                                             const Operand& address, const std::optional<Operand>& value,
                                             DebugLocation location) {
  editor_.insert_before(position, Label{skip, {}});
  emit(position, "mov.u32", {*repeated_site_, Operand::integer(site)}, location);
  emit(position, "mov.b64", {*repeated_address_, address}, location);
  if (value) emit(position, "mov.b64", {*repeated_value_, *value}, location);
}

void RuntimeCallBuilder::note_read(StatementIterator position, const Operand& address, DebugLocation location) {
  emit(position, "mov.b64", {last_read(), address}, location);
}

Operand RuntimeCallBuilder::load_global_u32(StatementIterator position, std::string_view symbol,
                                            DebugLocation location) {
  Operand value = Operand::reg(scratch(ScalarType::B32, 1));
  emit(position, "ld.global.u32", {value, Operand::address(module_.intern(symbol))}, location);
  return value;
}

Operand RuntimeCallBuilder::predicate_as_u32(StatementIterator position, const Guard& guard, DebugLocation location) {
  Operand result = Operand::reg(scratch(ScalarType::B32, 1));
  Operand taken = Operand::integer(guard.negated ? 0 : 1);
  Operand not_taken = Operand::integer(guard.negated ? 1 : 0);
  emit(position, "selp.b32", {result, taken, not_taken, Operand::reg(guard.predicate)}, location);
  return result;
}

void RuntimeCallBuilder::call_before(StatementIterator position, RuntimeFunction function,
                                     const std::vector<CallArgument>& arguments, DebugLocation location) {
  const EntryPoint& entry = entry_point(function);
  editor_.insert_before(position, ScopeBegin{});
  std::vector<Operand> parameters;
  for (size_t i = 0; i < arguments.size(); ++i) {
    std::string name = param_name(i);
    VariableDeclaration declaration = param(module_, arguments[i].type, name);
    parameters.push_back(Operand::symbol(declaration.name));
    editor_.insert_before(position, std::move(declaration));
    std::string store = std::string("st.param.") + std::string(to_string(arguments[i].type));
    emit(position, store, {Operand::address(parameters.back().text), arguments[i].value}, location);
  }
  if (parameters.empty()) {
    emit(position, "call", {Operand::symbol(entry.name)}, location);  // `call f;`: PTX has no empty list
  } else {
    Operand parameter_list{OperandKind::ParameterList, false, {}, 0, parameters, false};
    emit(position, "call", {Operand::symbol(entry.name), parameter_list}, location);
  }
  editor_.insert_before(position, ScopeEnd{});
  forget_repeated_read(position, location);
}

}  // namespace barracuda::ptx::passes
