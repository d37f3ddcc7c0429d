#pragma once
// The control-flow graph of one function. Blocks start at the first statement, at every label
// that is a branch target (or any label) and after every branch/ret/exit; edges come from bra,
// brx.idx label tables, fall-through, and guarded ret/exit (which may fall through).
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "ptx/function.h"

namespace barracuda::ptx {

enum class BlockId : uint32_t {};
constexpr uint32_t index(BlockId id) { return static_cast<uint32_t>(id); }

struct BasicBlock {
  BlockId id{};
  // The block's statements: [first, last) of the function body, labels and directives included.
  StatementIterator first;
  StatementIterator last;
  std::vector<BlockId> successors;
  std::vector<BlockId> predecessors;
  // Whether control may leave the function from this block (ret, exit, trap, or falling off the end).
  bool exits_function = false;
};

class ControlFlowGraph {
 public:
  // Builds the graph of a function definition. Branches to labels the function does not define
  // (impossible in valid PTX) are ignored.
  explicit ControlFlowGraph(Function& function);

  std::span<const BasicBlock> blocks() const { return blocks_; }
  const BasicBlock& block(BlockId id) const { return blocks_[index(id)]; }
  size_t size() const { return blocks_.size(); }
  // The block where execution starts (the function has at least one block, possibly empty).
  BlockId entry() const { return BlockId{0}; }
  // The block that starts at label `name`, if any.
  const BasicBlock* block_at_label(std::string_view name) const;

 private:
  std::vector<BasicBlock> blocks_;
};

}  // namespace barracuda::ptx
