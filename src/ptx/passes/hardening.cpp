#include "ptx/passes/hardening.h"

#include <set>
#include <string_view>

#include "ptx/function_editor.h"

namespace barracuda::ptx::passes {
namespace {

// Scope::None on an atom/red/fence is .gpu (the PTX default); on other instructions it means none.
int scope_rank(Scope scope) {
  switch (scope) {
    case Scope::Cta: return 0;
    case Scope::Cluster: return 1;
    case Scope::None:
    case Scope::Gpu: return 2;
    case Scope::Sys: return 3;
  }
  return 2;
}

std::string fence_mnemonic(Scope scope) { return "fence.acq_rel." + std::string(to_string(scope)); }

bool is_fence(const Statement& statement, std::string_view mnemonic) {
  const auto* instruction = std::get_if<Instruction>(&statement);
  return instruction != nullptr && instruction->mnemonic == mnemonic;
}

// The mnemonic with its scope modifier replaced ("atom.global.cta.add.u32" -> "atom.global.gpu.add.u32").
std::string with_scope(const Instruction& instruction, Scope scope) {
  std::string mnemonic;
  size_t start = 0;
  const std::string_view text = instruction.mnemonic;
  while (start <= text.size()) {
    const size_t dot = text.find('.', start);
    const std::string_view word = text.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    mnemonic += mnemonic.empty() ? "" : ".";
    mnemonic += word == to_string(instruction.scope) && start != 0 ? to_string(scope) : word;
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return mnemonic;
}

bool apply(Module& module, Function& function, StatementIterator position, const HardeningEdit& edit) {
  FunctionEditor editor(module, function);
  const Instruction& instruction = std::get<Instruction>(*position);
  if (edit.kind != HardeningEdit::Kind::kWidenScope) {
    const bool after = edit.kind == HardeningEdit::Kind::kFenceAfter;
    const std::string mnemonic = fence_mnemonic(edit.scope);
    // Applied already (a repeated edit): the fence is there.
    const auto beside = after ? std::next(position) : position;
    if (after ? beside != function.body.end() && is_fence(*beside, mnemonic)
              : beside != function.body.begin() && is_fence(*std::prev(beside), mnemonic)) {
      return false;
    }
    Instruction fence = editor.make_instruction(mnemonic, {});
    fence.debug_location = instruction.debug_location;
    fence.outermost_location = instruction.outermost_location;
    fence.position = instruction.position;
    // Before a guarded instruction it runs unguarded: a fence more than the program needs, never less.
    if (after) {
      editor.insert_after(position, std::move(fence));
    } else {
      editor.insert_before(position, std::move(fence));
    }
    return true;
  }
  // Only an explicit narrower scope is widened: a weak access has none to widen.
  if (instruction.scope == Scope::None || scope_rank(instruction.scope) >= scope_rank(edit.scope)) return false;
  Instruction widened = editor.make_instruction(with_scope(instruction, edit.scope), instruction.operands);
  widened.guard = instruction.guard;
  widened.debug_location = instruction.debug_location;
  widened.outermost_location = instruction.outermost_location;
  widened.position = instruction.position;
  *position = std::move(widened);
  return true;
}

}  // namespace

uint64_t harden_module(Module& module, std::span<const HardeningEdit> edits) {
  std::set<std::string_view> kernels;
  for (Function* function : module.definitions()) {
    if (function->is_entry) kernels.insert(function->name);
  }
  uint64_t changed = 0;
  for (const HardeningEdit& edit : edits) {
    if (!kernels.contains(edit.kernel)) continue;
    for (Function* function : module.definitions()) {
      for (auto it = function->body.begin(); it != function->body.end(); ++it) {
        const auto* instruction = std::get_if<Instruction>(&*it);
        // A fence is never an edit's target; one on the line is one an earlier edit inserted there.
        if (instruction == nullptr || instruction->position.line != edit.ptx_line ||
            instruction->opcode == Opcode::Fence) {
          continue;
        }
        changed += apply(module, *function, it, edit);
        break;  // one instruction starts on a line
      }
    }
  }
  return changed;
}

}  // namespace barracuda::ptx::passes
