#include "ptx/passes/fence_free_functions.h"

#include <string_view>

#include "ptx/passes/call_graph.h"

namespace barracuda::ptx::passes {
namespace {

bool is_fence(const Instruction& instruction) {
  return instruction.opcode == Opcode::Fence || instruction.opcode == Opcode::Membar;
}

// Callees whose bodies are not instrumented, so no fence of theirs ever reaches the engine.
bool logs_no_fence(std::string_view name) {
  return name.starts_with("__barracuda_") || name == "vprintf" || name == "malloc" || name == "free" ||
         name == "__assertfail";
}

// Other modules may call it, or replace its body at link time.
bool exposed(const Function& function) {
  return function.linkage == Linkage::Visible || function.linkage == Linkage::Weak ||
         function.linkage == Linkage::Common;
}

// A fence in its own body, or a call whose callee's body the module cannot vouch for.
bool fenced_itself(const CallGraph& graph, const Function* function) {
  for (std::string_view callee : graph.outside_callees.at(function)) {
    if (!logs_no_fence(callee)) return true;
  }
  for (const Statement& statement : function->body) {
    const auto* instruction = std::get_if<Instruction>(&statement);
    if (instruction && is_fence(*instruction)) return true;
  }
  return false;
}

}  // namespace

FenceFreeFunctions::FenceFreeFunctions(const Module& module) {
  const CallGraph graph = build_call_graph(module);
  if (graph.has_indirect_call) return;
  std::unordered_set<const Function*> fenced;
  for (const Function* function : graph.definitions) {
    if (fenced_itself(graph, function)) fenced.insert(function);
  }
  std::unordered_set<const Function*> run_by_fenced_kernel;
  for (const Function* kernel : graph.definitions) {
    if (!kernel->is_entry) continue;
    const std::unordered_set<const Function*> closure = call_closure(graph, kernel);
    bool reaches_fence = false;
    for (const Function* function : closure) reaches_fence = reaches_fence || fenced.contains(function);
    if (reaches_fence) run_by_fenced_kernel.insert(closure.begin(), closure.end());
  }
  for (const Function* function : graph.definitions) {
    if (run_by_fenced_kernel.contains(function) || (!function->is_entry && exposed(*function))) continue;
    fence_free_.insert(function);
  }
}

}  // namespace barracuda::ptx::passes
