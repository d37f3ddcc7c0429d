#pragma once
// Cooperative groups' grid barrier (`cg::this_grid().sync()`, cooperative_groups/details/sync.h for
// sm_70 and later) as nvcc compiles it, found in the instrumented PTX so that the device can treat it
// as what it is, a barrier of the whole grid (docs/device_global_check.md, "Grid syncs"):
//
//       barrier.sync 0;                          every thread of the block
//       @!first bra AFTER;                       thread 0 of the block goes on
//       atom.add.release.gpu.u32 old, [W+4], n;  the arrival at the grid's counter
//     SPIN:
//       ld.acquire.gpu.u32 now, [W+4];           until the counter's top bit flips
//       ... @p bra SPIN;
//     AFTER:
//       barrier.sync 0;
//
// W, the grid's barrier workspace, is read from %envreg1 and %envreg2 (`cudaCGGetIntrinsicHandle`):
// a register counts as W when every instruction that writes it moves, converts or bit-inserts values
// read from those two registers, or adds an immediate to such a value. Between the barriers and the
// two accesses only instructions that touch no memory may stand (branches included), no label may
// stand between the first barrier and the arrival (nothing jumps past the barrier into it), and the
// spin loop is the arrival's very next label, its load the loop's only memory access. The split form
// (`barrier_arrive()` ... `barrier_wait()`, with the program's code between) does not match: there the
// code between is concurrent with the other blocks' code on both sides, which the grid intervals of
// the device's check cannot say, so such kernels stay with the host's vector clocks.
#include <unordered_set>

#include "ptx/module.h"

namespace barracuda::ptx::passes {

class GridSyncs {
 public:
  explicit GridSyncs(const Module& module);

  // The arrival (`atom.add.release.gpu`) of a recognised grid sync.
  bool is_arrival(const Instruction& instruction) const { return arrivals_.contains(&instruction); }
  // The arrival or the spin's load of a recognised grid sync: the two accesses that make the barrier,
  // which the device-side checks let through (barrier_only_kernels.h).
  bool contains(const Instruction& instruction) const {
    return arrivals_.contains(&instruction) || spins_.contains(&instruction);
  }
  // Whether `function`'s own body has a recognised grid sync.
  bool in(const Function& function) const { return functions_.contains(&function); }

 private:
  std::unordered_set<const Instruction*> arrivals_;
  std::unordered_set<const Instruction*> spins_;
  std::unordered_set<const Function*> functions_;
};

}  // namespace barracuda::ptx::passes
