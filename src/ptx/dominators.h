#pragma once
// Dominator and post-dominator trees over a ControlFlowGraph (Cooper-Harvey-Kennedy iteration).
// Post-dominance uses a virtual exit node that every exiting block flows into; blocks that cannot
// reach an exit (infinite loops) are connected to the virtual exit too, so every block gets an
// immediate post-dominator.
#include <optional>
#include <vector>

#include "ptx/cfg.h"

namespace barracuda::ptx {

class DominatorTree {
 public:
  explicit DominatorTree(const ControlFlowGraph& cfg);
  // nullopt for the entry block and for blocks unreachable from it.
  std::optional<BlockId> immediate_dominator(BlockId block) const;
  // Reflexive: every reachable block dominates itself.
  bool dominates(BlockId dominator, BlockId block) const;

 private:
  std::vector<uint32_t> idom_;   // per block; UINT32_MAX when unreachable, the entry for the entry
  std::vector<uint32_t> depth_;  // depth in the tree, for dominates()
};

class PostDominatorTree {
 public:
  explicit PostDominatorTree(const ControlFlowGraph& cfg);
  // nullopt when the immediate post-dominator is the virtual exit (e.g. a block ending in ret, or
  // a branch whose paths meet only at function exit).
  std::optional<BlockId> immediate_post_dominator(BlockId block) const;
  bool post_dominates(BlockId post_dominator, BlockId block) const;

 private:
  std::vector<uint32_t> ipdom_;  // per block plus the virtual exit (index = block count)
  std::vector<uint32_t> depth_;
};

}  // namespace barracuda::ptx
