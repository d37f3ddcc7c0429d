#include "ptx/passes/call_graph.h"

namespace barracuda::ptx::passes {
namespace {

// `call[.uni] [(returns),] target[, (arguments)][, prototype];`: the first operand that is not a list.
const Operand* call_target(const Instruction& call) {
  for (const Operand& operand : call.operands) {
    if (operand.kind != OperandKind::ParameterList) return &operand;
  }
  return nullptr;
}

}  // namespace

CallGraph build_call_graph(const Module& module) {
  CallGraph graph;
  for (const Function* function : module.functions()) {
    if (function->is_definition && !function->name.starts_with("__barracuda_")) graph.definitions.push_back(function);
  }
  std::unordered_map<std::string_view, const Function*> by_name;
  for (const Function* function : graph.definitions) by_name.emplace(function->name, function);
  for (const Function* function : graph.definitions) {
    std::vector<const Function*>& callees = graph.callees[function];
    std::vector<std::string_view>& outside = graph.outside_callees[function];
    for (const Statement& statement : function->body) {
      const auto* instruction = std::get_if<Instruction>(&statement);
      if (!instruction || instruction->opcode != Opcode::Call) continue;
      const Operand* target = call_target(*instruction);
      if (!target || target->kind != OperandKind::Symbol) {
        graph.has_indirect_call = true;
        continue;
      }
      auto callee = by_name.find(target->text);
      if (callee != by_name.end() && callee->second->linkage != Linkage::Weak) {
        callees.push_back(callee->second);
      } else {
        outside.push_back(target->text);
      }
    }
  }
  return graph;
}

std::unordered_set<const Function*> call_closure(const CallGraph& graph, const Function* kernel) {
  std::unordered_set<const Function*> reached{kernel};
  std::vector<const Function*> pending{kernel};
  while (!pending.empty()) {
    const Function* function = pending.back();
    pending.pop_back();
    auto callees = graph.callees.find(function);
    if (callees == graph.callees.end()) continue;
    for (const Function* callee : callees->second) {
      if (reached.insert(callee).second) pending.push_back(callee);
    }
  }
  return reached;
}

}  // namespace barracuda::ptx::passes
