#include "ptx/passes/fence_free_functions.h"

#include "ptx/passes/call_graph.h"

namespace barracuda::ptx::passes {
namespace {

bool has_fence(const Function& function) {
  for (const Statement& statement : function.body) {
    const auto* instruction = std::get_if<Instruction>(&statement);
    if (instruction && (instruction->opcode == Opcode::Fence || instruction->opcode == Opcode::Membar)) return true;
  }
  return false;
}

}  // namespace

FenceFreeFunctions::FenceFreeFunctions(const Module& module) {
  const CallGraph graph(module);
  fence_free_ = functions_of_kernels_where(graph, [&](const std::unordered_set<const Function*>& closure) {
    for (const Function* function : closure) {
      if (graph.calls_unknown.contains(function) || has_fence(*function)) return false;
    }
    return true;
  });
}

}  // namespace barracuda::ptx::passes
