#pragma once
// What the device-side checks of a memory space share (shared_checkable_kernels.h,
// global_checkable_kernels.h): kernels in which nothing but full-block barriers orders two threads'
// accesses, so that within a block two accesses to one word race exactly when they fall in one
// barrier interval, come from two threads and one writes (across blocks nothing orders them). Each
// check adds its own rule on the accesses it would see.
//
// A function qualifies when every kernel that can call it, transitively, does; a kernel qualifies
// when its space's rule finds an access to check in its call closure and nothing in that closure
// (call_graph.h: nothing the module cannot see) contains:
//   - a barrier other than `bar.sync 0` / `barrier.sync[.aligned] 0` (named barriers, thread counts,
//     bar.arrive, bar.red), a cluster barrier, or `bar.warp.sync` (__syncwarp: it orders lanes);
//   - a fence, or an instruction with .acquire/.release/.acq_rel semantics (release/acquire could
//     order accesses through any memory);
//   - DSMEM (anything naming .shared::cluster, mapa, getctarank), async copies, bulk copies, TMA,
//     mbarriers, st.async/red.async, multimem, wgmma, and any opcode the IR does not know;
//   - an instruction the space's rule refuses.
// A cooperative-groups grid sync (grid_syncs.h) is allowed: its arrival and spin are the only
// ordering accesses let through, and the device keeps each block's count of them (a grid interval).
// Warp shuffles, votes and match are allowed: the engine gives them no ordering either, so the
// verdicts are the same.
// Every site id of a qualifying function must fit the shadow's stamp (kSharedCheckMaxSites): a module
// whose ids might not is left to the host entirely.
#include <cstdint>
#include <unordered_set>

#include "ptx/module.h"

namespace barracuda::ptx::passes {

// Shared, or generic (which may reach shared memory: its space is known only at run time).
bool may_be_shared(StateSpace space);

// `bar.sync 0` / `barrier.sync[.aligned] 0`: every thread of the block, barrier 0.
bool full_block_barrier(const Instruction& instruction);

// What one space's check adds to the barrier-only rule above. Each sees only instructions that rule
// lets through.
struct DeviceCheckRule {
  // Whether the kernel stays checkable with `instruction` in its closure.
  bool (*allows)(const Instruction& instruction);
  // Whether the check would see `instruction`: a kernel whose closure has no such access gains
  // nothing from the check (and would pay for its block slot).
  bool (*sees)(const Instruction& instruction);
};

// The functions every launch that can run them is of a kernel that qualifies: barrier-only, with
// `rule` allowing all its closure and seeing some of it.
class BarrierOnlyKernels {
 public:
  // `first_site_id`: where the module's site ids start.
  BarrierOnlyKernels(const Module& module, uint32_t first_site_id, const DeviceCheckRule& rule);

  // True when every launch that can run `function` is of a qualifying kernel.
  bool contains(const Function& function) const { return functions_.contains(&function); }
  // True for a qualifying kernel with a recognised grid sync in its closure (grid_syncs.h).
  bool has_grid_sync(const Function& kernel) const { return grid_sync_kernels_.contains(&kernel); }

 private:
  std::unordered_set<const Function*> functions_;
  std::unordered_set<const Function*> grid_sync_kernels_;
};

// No memory-model qualifier, or .weak: the access neither synchronises nor is strong (strong accesses
// do not race with each other, which a shadow word does not know).
bool weak_access(const Instruction& instruction);

// The bytes one lane accesses: the type's width times the vector width.
uint32_t access_bytes(const Instruction& instruction);

}  // namespace barracuda::ptx::passes
