#include "ptx/passes/runtime_merge.h"

#include <algorithm>
#include <charconv>
#include <list>
#include <tuple>
#include <vector>

namespace barracuda::ptx::passes {
namespace {

bool is_runtime_prototype(const ModuleItem& item, const Module& runtime) {
  const auto* function = std::get_if<Function>(&item);
  if (function == nullptr || function->is_definition) return false;
  const auto definitions = runtime.functions();
  return std::any_of(definitions.begin(), definitions.end(), [&](const Function* definition) {
    return definition->is_definition && definition->name == function->name;
  });
}

VersionDirective version_of(const Module& module) {
  for (const ModuleItem& item : module.items) {
    if (const auto* version = std::get_if<VersionDirective>(&item)) return *version;
  }
  return {};
}

// 20 for "sm_20", 90 for "sm_90a"; 0 for words that are not an architecture (".target sm_20, debug").
uint32_t architecture_number(std::string_view target) {
  uint32_t number = 0;
  if (!target.starts_with("sm_")) return 0;
  std::from_chars(target.data() + 3, target.data() + target.size(), number);
  return number;
}

// Compiled as one program, the runtime's instructions (acquire loads, match, nanosleep) need its target:
// a module written for an older one (sm_20 after legacy_isa_upgrade.h) takes the runtime's.
void raise_target(Module& module, const Module& runtime) {
  std::string_view needed;
  for (const ModuleItem& item : runtime.items) {
    if (const auto* target = std::get_if<TargetDirective>(&item); target && !target->targets.empty()) {
      needed = target->targets.front();
    }
  }
  for (ModuleItem& item : module.items) {
    auto* target = std::get_if<TargetDirective>(&item);
    if (target == nullptr) continue;
    for (std::string_view& word : target->targets) {
      if (architecture_number(word) != 0 && architecture_number(word) < architecture_number(needed)) word = needed;
    }
  }
}

}  // namespace

void merge_device_runtime(Module& module, const Module& runtime) {
  raise_target(module, runtime);
  VersionDirective needed = version_of(runtime);
  for (ModuleItem& item : module.items) {
    auto* version = std::get_if<VersionDirective>(&item);
    if (version && std::tie(version->major, version->minor) < std::tie(needed.major, needed.minor)) *version = needed;
  }
  // The definitions go where the first prototype was (before any use; else before the first
  // function), and the module's prototypes go away. The runtime's own forward declarations of its
  // internal functions (those it does not inline) stay: its entry points call them before their
  // definitions.
  std::vector<std::list<ModuleItem>::iterator> prototypes;
  for (auto it = module.items.begin(); it != module.items.end(); ++it) {
    if (is_runtime_prototype(*it, runtime)) prototypes.push_back(it);
  }
  auto position = prototypes.empty() ? std::find_if(module.items.begin(), module.items.end(),
                                                    [](const ModuleItem& item) {
                                                      return std::holds_alternative<Function>(item);
                                                    })
                                     : prototypes.front();
  for (const ModuleItem& item : runtime.items) {
    if (std::holds_alternative<Function>(item) || std::holds_alternative<VariableDeclaration>(item)) {
      module.items.insert(position, item);
    }
  }
  for (auto prototype : prototypes) module.items.erase(prototype);
}

}  // namespace barracuda::ptx::passes
