#include "ptx/passes/device_launch_copies.h"

#include <charconv>
#include <map>
#include <set>

#include "barracuda/device_launch.h"

namespace barracuda::ptx::passes {
namespace {

// Symbols an operand names, nested members included.
template <typename Visit>
void for_each_symbol(Operand& operand, Visit&& visit) {
  if (operand.kind == OperandKind::Symbol || operand.kind == OperandKind::Address) visit(operand.text);
  for (Operand& element : operand.elements) for_each_symbol(element, visit);
}

template <typename Visit>
void for_each_symbol(Function& function, Visit&& visit) {
  for (Statement& statement : function.body) {
    auto* instruction = std::get_if<Instruction>(&statement);
    if (!instruction) continue;
    for (Operand& operand : instruction->operands) for_each_symbol(operand, visit);
  }
}

// Where each parameter starts in a kernel's parameter buffer (each at its alignment, in order), and
// where the list ends; nullopt for a parameter whose size is not known (an opaque type, a 2-D array).
std::optional<std::vector<uint32_t>> parameter_offsets(const Function& kernel, uint32_t* end) {
  std::vector<uint32_t> offsets;
  uint32_t offset = 0;
  for (const VariableDeclaration& parameter : kernel.parameters) {
    const uint32_t element = bit_width(parameter.type) / 8 * parameter.vector_width;
    if (element == 0) return std::nullopt;
    uint64_t count = 1;
    if (!parameter.array_suffix.empty()) {
      const std::string_view digits = parameter.array_suffix.substr(1, parameter.array_suffix.size() - 2);
      if (parameter.array_suffix.front() != '[' || parameter.array_suffix.back() != ']' ||
          std::from_chars(digits.data(), digits.data() + digits.size(), count).ptr != digits.data() + digits.size()) {
        return std::nullopt;
      }
    }
    const uint32_t alignment = parameter.alignment != 0 ? parameter.alignment : element;
    offset = (offset + alignment - 1) / alignment * alignment;
    offsets.push_back(offset);
    offset += static_cast<uint32_t>(count * element);
  }
  *end = offset;
  return offsets;
}

// Where a token parameter appended to `kernel` would start.
std::optional<uint32_t> appended_token_offset(const Function& kernel) {
  uint32_t end = 0;
  if (!parameter_offsets(kernel, &end)) return std::nullopt;
  return (end + 7) / 8 * 8;
}

// Every launch from the device in `function` can be followed: the kernel of each parameter buffer
// taken is one of `launched` (its symbol moved into the register the call passes), and each launch
// passes a buffer such a call returned.
bool launches_followed(Function& function, const std::set<std::string_view>& launched) {
  std::set<std::string_view> buffers;
  for (auto it = function.body.begin(); it != function.body.end(); ++it) {
    const auto* call = std::get_if<Instruction>(&*it);
    if (!call || !calls(*call, kGetParameterBuffer)) continue;
    const std::optional<Operand> kernel = call_argument(it, function.body, 0, 0);
    if (!kernel || !kernel->is_register()) return false;
    const std::optional<std::string_view> symbol = symbol_in_register(function, kernel->text);
    const std::optional<std::string_view> buffer = call_result(it, function.body);
    if (!symbol || !launched.contains(*symbol) || !buffer) return false;
    for (uint32_t d = 0; d < 3; ++d) {
      if (!call_argument(it, function.body, 1, 4 * d)) return false;
    }
    buffers.insert(*buffer);
  }
  for (auto it = function.body.begin(); it != function.body.end(); ++it) {
    const auto* call = std::get_if<Instruction>(&*it);
    if (!call || !calls(*call, kLaunchDevice)) continue;
    const std::optional<Operand> buffer = call_argument(it, function.body, 0, 0);
    if (!buffer || !buffer->is_register() || !buffers.contains(buffer->text) || !call_argument(it, function.body, 1, 0)) {
      return false;
    }
  }
  return true;
}

}  // namespace

bool calls(const Instruction& call, std::string_view callee) {
  if (call.opcode != Opcode::Call) return false;
  for (const Operand& operand : call.operands) {
    if (operand.kind == OperandKind::Symbol && operand.text == callee) return true;
  }
  return false;
}

std::optional<Operand> call_argument(StatementIterator call, const StatementList& body, int parameter,
                                     int64_t offset) {
  const std::string name = "param" + std::to_string(parameter);
  for (auto it = call; it != body.begin();) {
    --it;
    if (std::holds_alternative<ScopeBegin>(*it)) break;
    const auto* store = std::get_if<Instruction>(&*it);
    if (store && store->opcode == Opcode::St && store->space == StateSpace::Param && store->operands.size() == 2 &&
        store->operands[0].is_address() && store->operands[0].text == name && store->operands[0].value == offset) {
      return store->operands[1];
    }
  }
  return std::nullopt;
}

std::optional<std::string_view> call_result(StatementIterator call, const StatementList& body) {
  for (auto it = std::next(call); it != body.end() && !std::holds_alternative<ScopeEnd>(*it); ++it) {
    const auto* load = std::get_if<Instruction>(&*it);
    if (load && load->opcode == Opcode::Ld && load->space == StateSpace::Param && load->operands.size() == 2 &&
        load->operands[0].is_register() && load->operands[1].is_address() && load->operands[1].text == "retval0") {
      return load->operands[0].text;
    }
  }
  return std::nullopt;
}

std::unordered_set<std::string_view> parameter_buffer_registers(Function& function) {
  std::unordered_set<std::string_view> buffers;
  for (auto it = function.body.begin(); it != function.body.end(); ++it) {
    const auto* call = std::get_if<Instruction>(&*it);
    if (!call || !calls(*call, kGetParameterBuffer)) continue;
    if (const std::optional<std::string_view> buffer = call_result(it, function.body)) buffers.insert(*buffer);
  }
  return buffers;
}

std::optional<std::string_view> symbol_in_register(const Function& function, std::string_view register_name) {
  std::optional<std::string_view> symbol;
  uint32_t definitions = 0;
  for (const Statement& statement : function.body) {
    const auto* instruction = std::get_if<Instruction>(&statement);
    if (!instruction || instruction->operands.empty() || !instruction->operands[0].is_register() ||
        instruction->operands[0].text != register_name) {
      continue;
    }
    ++definitions;
    if (instruction->opcode == Opcode::Mov && instruction->operands.size() == 2 &&
        instruction->operands[1].kind == OperandKind::Symbol && instruction->operands[1].value == 0) {
      symbol = instruction->operands[1].text;
    }
  }
  return definitions == 1 ? symbol : std::nullopt;
}

bool launches_from_the_device(const Module& module) {
  for (const Function* function : module.functions()) {
    const std::string_view name = function->name;
    if (!function->is_entry && (name.starts_with("__cudaCDP2") || name.starts_with("cudaLaunchDevice") ||
                                name.starts_with("cudaGetParameterBuffer"))) {
      return true;
    }
  }
  return false;
}

DeviceLaunchedKernels copy_device_launched_kernels(Module& module) {
  std::map<std::string_view, Function*> bodies;  // definitions by name
  for (Function* function : module.definitions()) {
    if (!function->name.starts_with("__barracuda_")) bodies.emplace(function->name, function);
  }
  // Kernels named in a body: a kernel is never called, so a reference is a launch from the device.
  std::set<std::string_view> launched;
  for (auto& [name, function] : bodies) {
    for_each_symbol(*function, [&](std::string_view symbol) {
      auto found = bodies.find(symbol);
      if (found != bodies.end() && found->second->is_entry) launched.insert(symbol);
    });
  }
  if (launched.empty()) return {};
  bool checked = true;
  for (std::string_view kernel : launched) checked &= appended_token_offset(*bodies.at(kernel)).has_value();
  for (auto& [name, function] : bodies) checked = checked && launches_followed(*function, launched);
  // Checked: the launched kernels alone are copied. Unchecked: with every function with a body here
  // they reach (.weak ones too: a copy of the body the module holds runs unchecked rather than a
  // checked one logging into the parent's launch).
  std::set<std::string_view> copied(launched.begin(), launched.end());
  std::vector<std::string_view> pending(launched.begin(), launched.end());
  while (!checked && !pending.empty()) {
    Function* function = bodies.at(pending.back());
    pending.pop_back();
    for_each_symbol(*function, [&](std::string_view symbol) {
      auto found = bodies.find(symbol);
      if (found != bodies.end() && !found->second->is_entry && copied.insert(symbol).second) pending.push_back(symbol);
    });
  }
  const std::string_view prefix = checked ? std::string_view(BARRACUDA_CHILD_KERNEL_PREFIX) : kUncheckedPrefix;
  std::map<std::string_view, std::string_view> copy_name;
  for (std::string_view name : copied) copy_name.emplace(name, module.intern(std::string(prefix) + std::string(name)));
  auto rename = [&](std::string_view& symbol) {
    auto found = copy_name.find(symbol);
    if (found != copy_name.end()) symbol = found->second;
  };
  // The device-side references to launched kernels (calls among originals stay), before the copies
  // are made: a checked copy of a kernel that launches itself launches its copy.
  if (checked) {
    for (auto& [name, function] : bodies) {
      for_each_symbol(*function, [&](std::string_view& symbol) {
        if (launched.contains(symbol)) rename(symbol);
      });
    }
  }
  // Each copy goes just before its original: after what the original uses, before the original (a
  // recursive kernel launches its copy) and what follows it. A prototype of the original gets one of
  // the copy beside it, for the functions between it and the definition.
  for (auto it = module.items.begin(); it != module.items.end(); ++it) {
    auto* function = std::get_if<Function>(&*it);
    if (!function || !copied.contains(function->name)) continue;
    Function copy = *function;
    copy.name = copy_name.at(function->name);
    copy.linkage = Linkage::None;  // the module's own: no other module may call or launch it
    if (checked) {
      VariableDeclaration token;
      token.space = StateSpace::Param;
      token.type_name = "u64";
      token.type = ScalarType::U64;
      token.name = BARRACUDA_CHILD_TOKEN_PARAMETER;
      copy.parameters.push_back(token);
      copy.has_parameter_list = true;
    } else {
      for_each_symbol(copy, rename);
    }
    module.items.insert(it, std::move(copy));
  }
  if (!checked) {
    for (auto& [name, function] : bodies) {
      for_each_symbol(*function, [&](std::string_view& symbol) {
        if (launched.contains(symbol)) rename(symbol);
      });
    }
  }
  return {{launched.begin(), launched.end()}, checked};
}

std::unordered_map<std::string_view, uint32_t> child_token_offsets(const Module& module) {
  std::unordered_map<std::string_view, uint32_t> offsets;
  for (const Function* function : module.functions()) {
    if (!function->is_entry || function->parameters.empty() ||
        function->parameters.back().name != BARRACUDA_CHILD_TOKEN_PARAMETER) {
      continue;
    }
    uint32_t end = 0;
    if (const auto starts = parameter_offsets(*function, &end)) offsets.emplace(function->name, starts->back());
  }
  return offsets;
}

}  // namespace barracuda::ptx::passes
