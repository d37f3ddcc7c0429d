#include "ptx/passes/fence_free_functions.h"

#include <string_view>
#include <unordered_map>
#include <vector>

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

// `call[.uni] [(returns),] target[, (arguments)][, prototype];`: the first operand that is not a list.
const Operand* call_target(const Instruction& call) {
  for (const Operand& operand : call.operands) {
    if (operand.kind != OperandKind::ParameterList) return &operand;
  }
  return nullptr;
}

struct CallGraph {
  std::unordered_map<const Function*, std::vector<const Function*>> callees;
  // A fence in its own body, or a call whose callee's body the module cannot vouch for.
  std::unordered_set<const Function*> fenced;
  bool has_indirect_call = false;
};

CallGraph build_call_graph(const std::vector<const Function*>& definitions) {
  std::unordered_map<std::string_view, const Function*> by_name;
  for (const Function* function : definitions) by_name.emplace(function->name, function);
  CallGraph graph;
  for (const Function* function : definitions) {
    std::vector<const Function*>& callees = graph.callees[function];
    for (const Statement& statement : function->body) {
      const auto* instruction = std::get_if<Instruction>(&statement);
      if (!instruction) continue;
      if (is_fence(*instruction)) graph.fenced.insert(function);
      if (instruction->opcode != Opcode::Call) continue;
      const Operand* target = call_target(*instruction);
      if (!target || target->kind != OperandKind::Symbol) {
        graph.has_indirect_call = true;
        continue;
      }
      auto callee = by_name.find(target->text);
      if (callee != by_name.end() && callee->second->linkage != Linkage::Weak) {
        callees.push_back(callee->second);
      } else if (!logs_no_fence(target->text)) {
        graph.fenced.insert(function);
      }
    }
  }
  return graph;
}

// `kernel` and every function it can call, transitively.
std::unordered_set<const Function*> call_closure(const CallGraph& graph, const Function* kernel) {
  std::unordered_set<const Function*> reached{kernel};
  std::vector<const Function*> pending{kernel};
  while (!pending.empty()) {
    const Function* function = pending.back();
    pending.pop_back();
    for (const Function* callee : graph.callees.at(function)) {
      if (reached.insert(callee).second) pending.push_back(callee);
    }
  }
  return reached;
}

}  // namespace

FenceFreeFunctions::FenceFreeFunctions(const Module& module) {
  std::vector<const Function*> definitions;
  for (const Function* function : module.functions()) {
    if (function->is_definition && !function->name.starts_with("__barracuda_")) definitions.push_back(function);
  }
  const CallGraph graph = build_call_graph(definitions);
  if (graph.has_indirect_call) return;
  std::unordered_set<const Function*> run_by_fenced_kernel;
  for (const Function* kernel : definitions) {
    if (!kernel->is_entry) continue;
    const std::unordered_set<const Function*> closure = call_closure(graph, kernel);
    bool fenced = false;
    for (const Function* function : closure) fenced = fenced || graph.fenced.contains(function);
    if (fenced) run_by_fenced_kernel.insert(closure.begin(), closure.end());
  }
  for (const Function* function : definitions) {
    if (run_by_fenced_kernel.contains(function) || (!function->is_entry && exposed(*function))) continue;
    fence_free_.insert(function);
  }
}

}  // namespace barracuda::ptx::passes
