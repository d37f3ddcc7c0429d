#include "ptx/passes/call_graph.h"

#include <string_view>

namespace barracuda::ptx::passes {
namespace {

// Callees whose bodies are not instrumented and that synchronise with no other thread.
bool uninstrumented_system_call(std::string_view name) {
  return name.starts_with("__barracuda_") || name == "vprintf" || name == "malloc" || name == "free" ||
         name == "__assertfail";
}

// `call[.uni] [(returns),] target[, (arguments)][, prototype];`: the first operand that is not a list.
const Operand* call_target(const Instruction& call) {
  for (const Operand& operand : call.operands) {
    if (operand.kind != OperandKind::ParameterList) return &operand;
  }
  return nullptr;
}

}  // namespace

bool exposed(const Function& function) {
  return function.linkage == Linkage::Visible || function.linkage == Linkage::Weak ||
         function.linkage == Linkage::Common;
}

CallGraph::CallGraph(const Module& module) {
  for (const Function* function : module.functions()) {
    if (function->is_definition && !function->name.starts_with("__barracuda_")) definitions.push_back(function);
  }
  std::unordered_map<std::string_view, const Function*> by_name;
  for (const Function* function : definitions) by_name.emplace(function->name, function);
  for (const Function* function : definitions) {
    std::vector<const Function*>& called = callees[function];
    for (const Statement& statement : function->body) {
      const auto* instruction = std::get_if<Instruction>(&statement);
      if (!instruction || instruction->opcode != Opcode::Call) continue;
      const Operand* target = call_target(*instruction);
      if (!target || target->kind != OperandKind::Symbol) {
        has_indirect_call = true;
        continue;
      }
      auto callee = by_name.find(target->text);
      if (callee != by_name.end() && callee->second->linkage != Linkage::Weak) {
        called.push_back(callee->second);
      } else if (!uninstrumented_system_call(target->text)) {
        calls_unknown.insert(function);
      }
    }
  }
}

std::unordered_set<const Function*> CallGraph::closure(const Function* kernel) const {
  std::unordered_set<const Function*> reached{kernel};
  std::vector<const Function*> pending{kernel};
  while (!pending.empty()) {
    const Function* function = pending.back();
    pending.pop_back();
    for (const Function* callee : callees.at(function)) {
      if (reached.insert(callee).second) pending.push_back(callee);
    }
  }
  return reached;
}

std::unordered_set<const Function*> functions_of_kernels_where(
    const CallGraph& graph, const std::function<bool(const std::unordered_set<const Function*>&)>& kernel_ok) {
  std::unordered_set<const Function*> selected;
  if (graph.has_indirect_call) return selected;
  std::unordered_set<const Function*> run_by_other_kernel;
  for (const Function* kernel : graph.definitions) {
    if (!kernel->is_entry) continue;
    const std::unordered_set<const Function*> closure = graph.closure(kernel);
    if (!kernel_ok(closure)) run_by_other_kernel.insert(closure.begin(), closure.end());
  }
  for (const Function* function : graph.definitions) {
    if (run_by_other_kernel.contains(function) || (!function->is_entry && exposed(*function))) continue;
    selected.insert(function);
  }
  return selected;
}

}  // namespace barracuda::ptx::passes
