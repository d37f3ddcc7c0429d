#include <gtest/gtest.h>

#include "ptx/cfg.h"
#include "ptx/dominators.h"
#include "test_modules.h"

namespace barracuda::ptx {
namespace {

using testing::kernel_module;
using testing::parse_or_fail;

std::vector<BlockId> ids(std::initializer_list<uint32_t> indices) {
  std::vector<BlockId> result;
  for (uint32_t i : indices) result.push_back(BlockId{i});
  return result;
}

class Graph {
 public:
  explicit Graph(const std::string& body)
      : module_(parse_or_fail(kernel_module(body))), cfg_(*module_->find_function("test")),
        dominators_(cfg_), post_dominators_(cfg_) {}

  const ControlFlowGraph& cfg() const { return cfg_; }
  const DominatorTree& dom() const { return dominators_; }
  const PostDominatorTree& pdom() const { return post_dominators_; }
  std::vector<BlockId> successors(uint32_t block) const { return cfg_.block(BlockId{block}).successors; }
  std::optional<BlockId> idom(uint32_t block) const { return dominators_.immediate_dominator(BlockId{block}); }
  std::optional<BlockId> ipdom(uint32_t block) const { return post_dominators_.immediate_post_dominator(BlockId{block}); }

 private:
  std::unique_ptr<Module> module_;
  ControlFlowGraph cfg_;
  DominatorTree dominators_;
  PostDominatorTree post_dominators_;
};

constexpr const char* kDiamond = R"(
	.reg .pred %p1;
	.reg .b32 %r<4>;
	setp.eq.u32 %p1, %r1, 0;
	@%p1 bra $L_else;
	mov.u32 %r2, 1;
	bra.uni $L_join;
$L_else:
	mov.u32 %r2, 2;
$L_join:
	ret;)";

TEST(ControlFlowGraph, DiamondBlocksAndEdges) {
  Graph g(kDiamond);
  ASSERT_EQ(g.cfg().size(), 4u);
  EXPECT_EQ(g.successors(0), ids({2, 1}));  // branch target, then fall-through
  EXPECT_EQ(g.successors(1), ids({3}));
  EXPECT_EQ(g.successors(2), ids({3}));
  EXPECT_TRUE(g.successors(3).empty());
  EXPECT_TRUE(g.cfg().block(BlockId{3}).exits_function);
  EXPECT_EQ(g.cfg().block(BlockId{3}).predecessors, ids({1, 2}));
  EXPECT_EQ(g.cfg().block_at_label("$L_else")->id, BlockId{2});
  EXPECT_EQ(g.cfg().block_at_label("$L_missing"), nullptr);
}

TEST(Dominators, Diamond) {
  Graph g(kDiamond);
  EXPECT_EQ(g.idom(0), std::nullopt);
  EXPECT_EQ(g.idom(1), BlockId{0});
  EXPECT_EQ(g.idom(2), BlockId{0});
  EXPECT_EQ(g.idom(3), BlockId{0});
  EXPECT_TRUE(g.dom().dominates(BlockId{0}, BlockId{3}));
  EXPECT_FALSE(g.dom().dominates(BlockId{1}, BlockId{3}));
  EXPECT_EQ(g.ipdom(0), BlockId{3});  // the branch reconverges at the join
  EXPECT_EQ(g.ipdom(1), BlockId{3});
  EXPECT_EQ(g.ipdom(3), std::nullopt);  // the virtual exit
  EXPECT_TRUE(g.pdom().post_dominates(BlockId{3}, BlockId{1}));
  EXPECT_FALSE(g.pdom().post_dominates(BlockId{1}, BlockId{0}));
}

TEST(Dominators, LoopWithEarlyExit) {
  Graph g(R"(
	.reg .pred %p<3>;
	.reg .b32 %r<4>;
	mov.u32 %r1, 0;
$L_head:
	setp.gt.u32 %p1, %r1, 10;
	@%p1 bra $L_out;
	add.u32 %r1, %r1, 1;
	setp.eq.u32 %p2, %r1, 7;
	@%p2 ret;
	bra.uni $L_head;
$L_out:
	ret;)");
  // 0: entry, 1: head, 2: body up to the guarded ret, 3: back edge, 4: out.
  ASSERT_EQ(g.cfg().size(), 5u);
  EXPECT_EQ(g.successors(1), ids({4, 2}));
  EXPECT_EQ(g.successors(2), ids({3}));  // guarded ret falls through ...
  EXPECT_TRUE(g.cfg().block(BlockId{2}).exits_function);  // ... and may leave the function
  EXPECT_EQ(g.successors(3), ids({1}));
  EXPECT_EQ(g.idom(3), BlockId{2});
  EXPECT_EQ(g.idom(4), BlockId{1});
  EXPECT_EQ(g.ipdom(1), std::nullopt);  // paths from the head meet only at function exit
  EXPECT_EQ(g.ipdom(3), BlockId{1});
  EXPECT_EQ(g.ipdom(0), BlockId{1});
}

TEST(Dominators, InfiniteLoopStillGetsPostDominators) {
  Graph g(R"(
	.reg .pred %p1;
	@%p1 bra $L_spin;
	ret;
$L_spin:
	bra.uni $L_spin;)");
  ASSERT_EQ(g.cfg().size(), 3u);
  EXPECT_EQ(g.successors(2), ids({2}));
  EXPECT_FALSE(g.cfg().block(BlockId{2}).exits_function);
  EXPECT_EQ(g.ipdom(2), std::nullopt);
  EXPECT_EQ(g.ipdom(0), std::nullopt);
  EXPECT_TRUE(g.pdom().post_dominates(BlockId{2}, BlockId{2}));
  EXPECT_EQ(g.idom(2), BlockId{0});
}

TEST(ControlFlowGraph, BranchTargetTableAndUnreachableCode) {
  Graph g(R"(
	.reg .b32 %r1;
	$L_table: .branchtargets $L_a, $L_b, $L_a;
	brx.idx %r1, $L_table;
	exit;
$L_a:
	ret;
$L_b:
	ret;)");
  // 0: brx.idx, 1: exit (unreachable), 2: $L_a, 3: $L_b. The table label starts no block.
  ASSERT_EQ(g.cfg().size(), 4u);
  EXPECT_EQ(g.successors(0), ids({2, 3}));
  EXPECT_TRUE(g.cfg().block(BlockId{1}).predecessors.empty());
  EXPECT_EQ(g.idom(1), std::nullopt);
  EXPECT_FALSE(g.dom().dominates(BlockId{0}, BlockId{1}));
  EXPECT_EQ(g.ipdom(0), std::nullopt);
}

TEST(ControlFlowGraph, EmptyBodyHasOneExitingBlock) {
  Graph g("");
  ASSERT_EQ(g.cfg().size(), 1u);
  EXPECT_TRUE(g.cfg().block(BlockId{0}).exits_function);
  EXPECT_EQ(g.ipdom(0), std::nullopt);
}

}  // namespace
}  // namespace barracuda::ptx
