#pragma once
// Which functions of a module run only in kernels whose shared memory the device can check on its
// own (barracuda/shared_check.h, device/shared_checker.cuh): kernels in which nothing but full-block
// barriers orders two threads' shared accesses, so that two accesses to one shared word race exactly
// when they fall in one barrier interval, come from two threads and one writes.
//
// A kernel qualifies when something it can call, transitively, loads or stores shared or generic
// memory or applies an atomic to shared memory (else there is nothing to check), and nothing it can
// call (call_graph.h: nothing the module cannot see) contains:
//   - a barrier other than `bar.sync 0` / `barrier.sync[.aligned] 0` (named barriers, thread counts,
//     bar.arrive, bar.red), a cluster barrier, or `bar.warp.sync` (__syncwarp: it orders lanes);
//   - a fence, or an access with .acquire/.release/.acq_rel semantics (release/acquire could order
//     shared accesses through any memory);
//   - an atomic or reduction on generic or DSMEM memory (the device classifies the space of loads and
//     stores only), or a shared or generic load or store with .volatile/.relaxed/.mmio semantics
//     (strong accesses do not race with each other). Shared atomics and reductions without ordering
//     semantics are checked on the device: with each other they never race, with plain accesses
//     they race as "atomic-plain";
//   - a shared or generic load or store, or shared atomic, of other than 4, 8 or 16 bytes (the shadow
//     has one entry per 4-byte word; two threads' byte stores into one word would look like a race);
//   - DSMEM, async copies, bulk copies, TMA, mbarriers, st.async/red.async, wgmma, and any opcode
//     the IR does not know.
// Warp shuffles, votes and match are allowed: the engine gives them no ordering either, so the
// verdicts are the same. Global atomics without .sem are allowed: without fences or release
// operations they synchronise nothing.
// Every site id of a qualifying function must fit the shadow's stamp (kSharedCheckMaxSites): a module
// whose ids might not is left to the host entirely.
#include <cstdint>
#include <unordered_set>

#include "ptx/module.h"

namespace barracuda::ptx::passes {

class SharedCheckableKernels {
 public:
  // `first_site_id`: where the module's site ids start.
  SharedCheckableKernels(const Module& module, uint32_t first_site_id);

  // True when every launch that can run `function` is of a qualifying kernel.
  bool contains(const Function& function) const { return checkable_.contains(&function); }

 private:
  std::unordered_set<const Function*> checkable_;
};

}  // namespace barracuda::ptx::passes
