#pragma once
// Spin reads: the volatile loads (ld.volatile of global, shared or generic memory) whose loaded value
// decides whether a loop that contains them iterates again, as in `while (*flag == 0);` or CUB's
// decoupled look-back (`do { v = ThreadLoad<LOAD_VOLATILE>(&loc); } while (v == 0);`). The memory pass
// marks them kAccessSpinRead; the engine treats a spin read and a volatile store of the same location
// as a morally strong pair (docs/engine.md, "volatile is not atomic").
//
// The analysis, on the function's original body:
//   - loops: natural loops of the back edges (an edge to a block that dominates its source), one per
//     header (back edges to one header share its loop);
//   - the load's value: its destination registers, then, through the loop's instructions in any
//     order (flow-insensitive, registers only, no memory), the destinations of every instruction with
//     a tainted source register or guard predicate; calls pass nothing on;
//   - the decision: a conditional branch (guarded bra, brx.idx, guarded ret/exit) in the loop whose
//     predicate (index) is tainted and which can leave the loop, jump to its header or leave the
//     function.
// A load that is a spin read of any loop containing it is one. So is the first test of a rotated loop
// (`while (*flag == 0) { ... }` as compilers emit it: one test before the loop, one at its bottom): a
// volatile load outside a loop whose value, through the rest of its block, decides the branch that
// ends the block, one successor of which leads (through blocks of one successor) to the loop's header
// while another leaves the loop out, where the loop spins on a load of the same address operand.
// Loads of other functions, through calls, are not followed.
#include <unordered_set>

#include "ptx/function.h"

namespace barracuda::ptx::passes {

class SpinReads {
 public:
  explicit SpinReads(Function& function);

  // Whether the statement (an ld.volatile of `function`'s body) is a spin read.
  bool contains(const Statement& statement) const { return spins_.contains(&statement); }
  size_t size() const { return spins_.size(); }

 private:
  std::unordered_set<const Statement*> spins_;
};

}  // namespace barracuda::ptx::passes
