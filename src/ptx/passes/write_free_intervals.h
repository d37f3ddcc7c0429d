#pragma once
// Shared-memory loads that no write can race with: those that only execute in barrier intervals in
// which no thread of the block can write shared memory. A full-block barrier orders every access of
// the block before it with every access after it, so a shared load can only race with a write of the
// same interval; where the code a thread can run in that interval holds no shared write, the load
// need not be logged nor checked (issue 17: gemm's and nbody's tile reads, between the barrier after
// the tile is stored and the one before the next tile is).
//
// Intervals are found statically, per kernel. A region is the code a thread can run after passing
// one barrier instruction (or from the kernel's entry) before passing another; a load is in the
// regions whose start reaches it without crossing a barrier. Two threads of one block in one
// interval have passed the same number of barriers, not necessarily at the same instruction (a
// divergent or data-dependent barrier count); two regions are taken for one interval unless every
// path count of barriers, modulo 2 to 8, keeps them apart (the kernel's entry region, count 0, meets
// no barrier's). A load is left unlogged when no region that may share an interval with one of its
// own holds a shared write (st/atom/red of shared or generic memory, wmma stores, stmatrix).
//
// Kernels only (a .func's intervals depend on its callers), and none that contains a fence (it
// acquires through its thread's last logged read, which a left-out load would change), a barrier
// other than `bar.sync 0` / `barrier.sync 0` (named barriers, thread counts, bar.arrive, bar.red,
// cluster barriers), DSMEM, an async or bulk copy, mbarriers, st.async/red.async, wgmma, multimem,
// tensormap or an opcode the IR does not know: their writes or their barrier counts are not followed.
// A call is taken as a plain instruction where everything it can reach is in the module (call_graph.h:
// the PTX system calls vprintf, malloc, free and __assertfail included, so `assert` and `printf` do
// not decline a kernel) and holds none of those, no barrier and no shared store; otherwise it
// declines the kernel. Only weak `ld.shared` qualifies (a generic load may be global; ordering loads
// are logged anyway).
#include <unordered_set>

#include "ptx/module.h"

namespace barracuda::ptx::passes {

class WriteFreeIntervals {
 public:
  // Looks at the calls of the module as it is: construct it before any pass edits a function.
  explicit WriteFreeIntervals(const Module& module);
  // The loads of `kernel` left unlogged; none for a .func. `kernel`'s body must not be edited yet.
  std::unordered_set<const Instruction*> loads_of(Function& kernel) const;

 private:
  // Kernels whose calls can only reach functions without barriers, shared stores or declined
  // instructions.
  std::unordered_set<const Function*> calls_followed_;
};

}  // namespace barracuda::ptx::passes
