#include "ptx/passes/device_launch_copies.h"

#include <map>
#include <set>

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

}  // namespace

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

std::vector<std::string> copy_device_launched_kernels(Module& module) {
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
  // Those kernels and every function with a body here they reach (.weak ones too: a copy of the body
  // the module holds runs unchecked rather than a checked one logging into the parent's launch).
  std::set<std::string_view> copied(launched.begin(), launched.end());
  std::vector<std::string_view> pending(launched.begin(), launched.end());
  while (!pending.empty()) {
    Function* function = bodies.at(pending.back());
    pending.pop_back();
    for_each_symbol(*function, [&](std::string_view symbol) {
      auto found = bodies.find(symbol);
      if (found != bodies.end() && !found->second->is_entry && copied.insert(symbol).second) pending.push_back(symbol);
    });
  }
  std::map<std::string_view, std::string_view> copy_name;
  for (std::string_view name : copied) copy_name.emplace(name, module.intern(std::string(kUncheckedPrefix) + std::string(name)));
  auto rename = [&](std::string_view& symbol) {
    auto found = copy_name.find(symbol);
    if (found != copy_name.end()) symbol = found->second;
  };
  for (auto it = module.items.begin(); it != module.items.end(); ++it) {
    auto* function = std::get_if<Function>(&*it);
    if (!function || !function->is_definition || !copied.contains(function->name)) continue;
    Function copy = *function;
    copy.name = copy_name.at(function->name);
    copy.linkage = Linkage::None;  // the module's own: no other module may call or launch it
    for_each_symbol(copy, rename);
    it = module.items.insert(std::next(it), std::move(copy));  // after its original: declared before its users
  }
  // The originals' device-side references to launched kernels (calls among originals stay).
  for (auto& [name, function] : bodies) {
    for_each_symbol(*function, [&](std::string_view& symbol) {
      if (launched.contains(symbol)) rename(symbol);
    });
  }
  return {launched.begin(), launched.end()};
}

}  // namespace barracuda::ptx::passes
