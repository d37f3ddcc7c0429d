#include "ptx/passes/unlogged_memory.h"

#include <unordered_set>

#include "ptx/passes/call_graph.h"

namespace barracuda::ptx::passes {

std::optional<std::string> unlogged_memory_kind(const Instruction& instruction) {
  switch (instruction.opcode) {
    case Opcode::Ldmatrix: return "ldmatrix";
    case Opcode::Stmatrix: return "stmatrix";
    case Opcode::Wmma:
      if (instruction.has_modifier("load")) return "wmma.load";
      if (instruction.has_modifier("store")) return "wmma.store";
      return std::nullopt;  // wmma.mma: registers only
    case Opcode::Wgmma:  // its A and B operands may be shared-memory matrix descriptors
      if (instruction.has_modifier("mma_async")) return "wgmma.mma_async";
      return std::nullopt;
    case Opcode::Suld: return "suld";
    case Opcode::Sust: return "sust";
    case Opcode::Sured: return "sured";
    case Opcode::RedAsync: return "red.async";
    case Opcode::Multimem: return "multimem";
    case Opcode::Tensormap: return "tensormap";
    case Opcode::Cp:
      if (instruction.has_modifier("bulk") && instruction.has_modifier("tensor")) {
        return instruction.has_modifier("reduce") ? "cp.reduce.async.bulk.tensor" : "cp.async.bulk.tensor";
      }
      return std::nullopt;  // cp.async and non-tensor bulk copies are logged; prefetches touch nothing
    default: return std::nullopt;
  }
}

UnloggedMemory unlogged_memory_by_kernel(const Module& module) {
  const CallGraph graph(module);
  std::map<const Function*, std::map<std::string, uint64_t>> own;
  for (const Function* function : graph.definitions) {
    for (const Statement& statement : function->body) {
      const auto* instruction = std::get_if<Instruction>(&statement);
      if (!instruction) continue;
      if (std::optional<std::string> kind = unlogged_memory_kind(*instruction)) ++own[function][*kind];
    }
  }
  UnloggedMemory result;
  for (const Function* kernel : graph.definitions) {
    if (!kernel->is_entry) continue;
    std::map<std::string, uint64_t> kinds;
    auto add = [&](const Function* function) {
      auto found = own.find(function);
      if (found == own.end()) return;
      for (const auto& [kind, count] : found->second) kinds[kind] += count;
    };
    if (graph.has_indirect_call) {
      for (const Function* function : graph.definitions) {
        if (function == kernel || !function->is_entry) add(function);
      }
    } else {
      for (const Function* function : graph.closure(kernel)) add(function);
    }
    if (!kinds.empty()) result.emplace(kernel->name, std::move(kinds));
  }
  return result;
}

}  // namespace barracuda::ptx::passes
