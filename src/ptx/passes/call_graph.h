#pragma once
// The module's static call graph, for questions asked per kernel: all threads of a launch run one
// kernel and whatever it calls, so a property of a launch is a property of the kernel's call closure.
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ptx/module.h"

namespace barracuda::ptx::passes {

struct CallGraph {
  // Every function with a body here, except the device runtime's (__barracuda_*).
  std::vector<const Function*> definitions;
  // Direct calls to those definitions (a .weak callee is not one: another module's body may win).
  std::unordered_map<const Function*, std::vector<const Function*>> callees;
  // Direct calls whose callee's body is not here (extern or .weak), by name.
  std::unordered_map<const Function*, std::vector<std::string_view>> outside_callees;
  bool has_indirect_call = false;  // the call graph is then incomplete
};

CallGraph build_call_graph(const Module& module);

// `kernel` and every definition it can call, transitively.
std::unordered_set<const Function*> call_closure(const CallGraph& graph, const Function* kernel);

}  // namespace barracuda::ptx::passes
