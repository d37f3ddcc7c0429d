// Logs each conditional branch (which lanes take it) and its reconvergence point, the immediate
// post-dominator of the branch's block, for the lockstep warp model.
#include "ptx/cfg.h"
#include "ptx/dominators.h"
#include "ptx/passes/pass_context.h"

namespace barracuda::ptx::passes {
namespace {

// The last instruction of a block, if any.
std::optional<StatementIterator> last_instruction(const BasicBlock& block) {
  std::optional<StatementIterator> last;
  for (StatementIterator it = block.first; it != block.last; ++it) {
    if (std::holds_alternative<Instruction>(*it)) last = it;
  }
  return last;
}

// Where code entering a block starts: after its labels.
StatementIterator block_start(const BasicBlock& block) {
  StatementIterator it = block.first;
  while (it != block.last && std::holds_alternative<Label>(*it)) ++it;
  return it;
}

bool is_divergent_branch(const Instruction& instruction) {
  return instruction.opcode == Opcode::Bra && instruction.guard.present() && !instruction.has_modifier("uni");
}

}  // namespace

void log_branch_divergence(PassContext& context) {
  ControlFlowGraph cfg(context.function);
  PostDominatorTree post_dominators(cfg);
  struct Reconvergence {
    StatementIterator position;
    uint32_t site;
    DebugLocation location;
  };
  std::vector<Reconvergence> reconvergences;
  for (const BasicBlock& block : cfg.blocks()) {
    std::optional<StatementIterator> branch = last_instruction(block);
    if (!branch || !is_divergent_branch(std::get<Instruction>(**branch))) continue;
    const Instruction& instruction = std::get<Instruction>(**branch);
    uint32_t site = context.sites.add(SiteKind::Branch, context.function, instruction);
    Operand taken = context.calls.predicate_as_u32(*branch, instruction.guard, instruction.debug_location);
    context.calls.call_before(*branch, RuntimeFunction::LogBranch,
                              {{ScalarType::B32, Operand::integer(site)}, {ScalarType::B32, taken}},
                              instruction.debug_location);
    ++context.statistics.branches;
    if (std::optional<BlockId> join = post_dominators.immediate_post_dominator(block.id)) {
      uint32_t join_site = context.sites.add(SiteKind::Reconvergence, context.function, instruction);
      reconvergences.push_back({block_start(cfg.block(*join)), join_site, instruction.debug_location});
    }
  }
  // Inserted after all branches are handled: block boundaries of the CFG must not move meanwhile.
  for (const Reconvergence& reconvergence : reconvergences) {
    context.calls.call_before(reconvergence.position, RuntimeFunction::LogReconverge,
                              {{ScalarType::B32, Operand::integer(reconvergence.site)}}, reconvergence.location);
    ++context.statistics.reconvergences;
  }
}

}  // namespace barracuda::ptx::passes
