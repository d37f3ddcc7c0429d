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
// acquires through its thread's last logged read, which a left-out load would change), a call, a barrier
// other than `bar.sync 0` / `barrier.sync 0` (named barriers, thread counts, bar.arrive, bar.red,
// cluster barriers), DSMEM, an async or bulk copy, mbarriers, st.async/red.async, wgmma, multimem,
// tensormap or an opcode the IR does not know: their writes or their barrier counts are not followed.
// Only weak `ld.shared` qualifies (a generic load may be global; ordering loads are logged anyway).
#include <unordered_set>

#include "ptx/function.h"

namespace barracuda::ptx::passes {

std::unordered_set<const Instruction*> loads_in_write_free_intervals(Function& kernel);

}  // namespace barracuda::ptx::passes
