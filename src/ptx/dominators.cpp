#include "ptx/dominators.h"

namespace barracuda::ptx {
namespace {

using Adjacency = std::vector<std::vector<uint32_t>>;
constexpr uint32_t kUnvisited = UINT32_MAX;

// Postorder numbers of the nodes reachable from `root` along `edges` (kUnvisited for the others).
std::vector<uint32_t> postorder_numbers(const Adjacency& edges, uint32_t root, std::vector<uint32_t>& order) {
  std::vector<uint32_t> number(edges.size(), kUnvisited);
  std::vector<bool> seen(edges.size(), false);
  std::vector<std::pair<uint32_t, size_t>> stack{{root, 0}};
  seen[root] = true;
  order.clear();
  while (!stack.empty()) {
    auto& [node, next_edge] = stack.back();
    if (next_edge < edges[node].size()) {
      uint32_t successor = edges[node][next_edge++];
      if (!seen[successor]) {
        seen[successor] = true;
        stack.emplace_back(successor, 0);
      }
      continue;
    }
    number[node] = static_cast<uint32_t>(order.size());
    order.push_back(node);
    stack.pop_back();
  }
  return number;
}

// Cooper, Harvey, Kennedy: "A Simple, Fast Dominance Algorithm". `forward` are the edges the
// search follows from `root`, `backward` their reverses. Unreachable nodes get kUnvisited.
std::vector<uint32_t> immediate_dominators(const Adjacency& forward, const Adjacency& backward, uint32_t root) {
  std::vector<uint32_t> postorder;
  std::vector<uint32_t> number = postorder_numbers(forward, root, postorder);
  std::vector<uint32_t> idom(forward.size(), kUnvisited);
  idom[root] = root;
  auto intersect = [&](uint32_t a, uint32_t b) {
    while (a != b) {
      while (number[a] < number[b]) a = idom[a];
      while (number[b] < number[a]) b = idom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = postorder.rbegin(); it != postorder.rend(); ++it) {
      uint32_t node = *it;
      if (node == root) continue;
      uint32_t candidate = kUnvisited;
      for (uint32_t predecessor : backward[node]) {
        if (idom[predecessor] == kUnvisited) continue;
        candidate = candidate == kUnvisited ? predecessor : intersect(predecessor, candidate);
      }
      if (candidate != idom[node]) {
        idom[node] = candidate;
        changed = true;
      }
    }
  }
  return idom;
}

// Tree depth of every node (root 0), for dominance queries; kUnvisited for unreachable nodes.
std::vector<uint32_t> depths(const std::vector<uint32_t>& idom, uint32_t root) {
  std::vector<uint32_t> depth(idom.size(), kUnvisited);
  depth[root] = 0;
  for (uint32_t node = 0; node < idom.size(); ++node) {
    std::vector<uint32_t> chain;
    uint32_t walk = node;
    while (idom[walk] != kUnvisited && depth[walk] == kUnvisited) {
      chain.push_back(walk);
      walk = idom[walk];
    }
    if (depth[walk] == kUnvisited) continue;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) depth[*it] = depth[idom[*it]] + 1;
  }
  return depth;
}

bool tree_ancestor(const std::vector<uint32_t>& idom, const std::vector<uint32_t>& depth, uint32_t ancestor,
                   uint32_t node) {
  if (depth[ancestor] == kUnvisited || depth[node] == kUnvisited) return false;
  while (depth[node] > depth[ancestor]) node = idom[node];
  return node == ancestor;
}

std::optional<BlockId> as_block(uint32_t node, uint32_t self, uint32_t block_count) {
  if (node == kUnvisited || node == self || node >= block_count) return std::nullopt;
  return BlockId{node};
}

}  // namespace

DominatorTree::DominatorTree(const ControlFlowGraph& cfg) {
  uint32_t count = static_cast<uint32_t>(cfg.size());
  Adjacency successors(count), predecessors(count);
  for (const BasicBlock& block : cfg.blocks()) {
    for (BlockId s : block.successors) successors[index(block.id)].push_back(index(s));
    for (BlockId p : block.predecessors) predecessors[index(block.id)].push_back(index(p));
  }
  idom_ = immediate_dominators(successors, predecessors, index(cfg.entry()));
  depth_ = depths(idom_, index(cfg.entry()));
}

std::optional<BlockId> DominatorTree::immediate_dominator(BlockId block) const {
  return as_block(idom_[index(block)], index(block), static_cast<uint32_t>(idom_.size()));
}

bool DominatorTree::dominates(BlockId dominator, BlockId block) const {
  return tree_ancestor(idom_, depth_, index(dominator), index(block));
}

PostDominatorTree::PostDominatorTree(const ControlFlowGraph& cfg) {
  // Node `count` is the virtual exit. Searching from it along reversed edges gives post-dominators.
  uint32_t count = static_cast<uint32_t>(cfg.size());
  uint32_t exit = count;
  Adjacency reversed(count + 1), original(count + 1);
  auto connect = [&](uint32_t from, uint32_t to) {
    original[from].push_back(to);
    reversed[to].push_back(from);
  };
  for (const BasicBlock& block : cfg.blocks()) {
    for (BlockId s : block.successors) connect(index(block.id), index(s));
    if (block.exits_function) connect(index(block.id), exit);
  }
  // Blocks that cannot reach an exit (infinite loops): connect the last such block to the exit and
  // search again, until every block reaches it.
  std::vector<uint32_t> order;
  for (;;) {
    std::vector<uint32_t> reached = postorder_numbers(reversed, exit, order);
    uint32_t stuck = kUnvisited;
    for (uint32_t node = count; node-- > 0;)
      if (reached[node] == kUnvisited) {
        stuck = node;
        break;
      }
    if (stuck == kUnvisited) break;
    connect(stuck, exit);
  }
  ipdom_ = immediate_dominators(reversed, original, exit);
  depth_ = depths(ipdom_, exit);
}

std::optional<BlockId> PostDominatorTree::immediate_post_dominator(BlockId block) const {
  return as_block(ipdom_[index(block)], index(block), static_cast<uint32_t>(ipdom_.size()) - 1);
}

bool PostDominatorTree::post_dominates(BlockId post_dominator, BlockId block) const {
  return tree_ancestor(ipdom_, depth_, index(post_dominator), index(block));
}

}  // namespace barracuda::ptx
