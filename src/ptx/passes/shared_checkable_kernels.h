#pragma once
// Which functions of a module run only in kernels whose shared memory the device can check on its
// own (barracuda/shared_check.h, device/shared_checker.cuh): barrier-only kernels
// (barrier_only_kernels.h says what that excludes) under this rule for shared memory.
//
// A kernel qualifies when something it can call, transitively, loads or stores shared or generic
// memory or applies an atomic to shared memory (else there is nothing to check), and nothing it can
// call contains:
//   - an atomic or reduction on generic memory (the device classifies the space of loads and stores
//     only), or a shared or generic load or store with .volatile/.relaxed/.mmio semantics (strong
//     accesses do not race with each other). Shared atomics and reductions without ordering
//     semantics are checked on the device: with each other they never race, with plain accesses
//     they race as "atomic-plain";
//   - a shared or generic load or store, or shared atomic, of other than 4, 8 or 16 bytes (the shadow
//     has one entry per 4-byte word; two threads' byte stores into one word would look like a race).
// Global atomics without .sem are allowed: without fences or release operations they synchronise
// nothing.
#include <cstdint>

#include "ptx/passes/barrier_only_kernels.h"

namespace barracuda::ptx::passes {

struct SharedCheckableKernels : BarrierOnlyKernels {
  SharedCheckableKernels(const Module& module, uint32_t first_site_id);
};

}  // namespace barracuda::ptx::passes
