#pragma once
// Which functions of a module run only in kernels whose global memory the device can check on its
// own: barrier-only kernels (barrier_only_kernels.h says what that excludes) under this rule for
// global memory. There, within one launch, nothing orders two threads' global accesses but the
// barriers of their block: accesses of two blocks to one word race unless both read, and so do those
// of two threads of one block in one barrier interval.
//
// A kernel qualifies when something it can call, transitively, loads, stores or updates global or
// generic memory (else there is nothing to check), and nothing it can call contains:
//   - an atomic or reduction on global or generic memory with .cta or .cluster scope (across blocks it
//     would race as a scoped race, which the shadow does not name), or of fewer than 4 bytes (the
//     shadow has one entry per 4-byte word). Atomics of .gpu or .sys scope without ordering
//     semantics (atomicAdd, cuda::atomic_ref relaxed) are checked as strong writes;
//   - a global or generic load with .volatile/.mmio semantics, or .relaxed of .cta/.cluster scope
//     (relaxed loads of .gpu or .sys scope are checked as strong reads: they race with plain writes
//     only);
//   - a global or generic store with any semantics but .weak (strong stores are left to the host), or
//     of fewer than 4 bytes (two threads' byte stores into one word would look like a race). Loads of
//     any size are fine: a read races only with a write, and writes cover whole words;
//   - a surface write (sust, sured).
// The barrier-only rule already refuses anything with .acquire/.release/.acq_rel/.sc and fences: with
// them, nothing but barriers orders two threads, so the engine's unfenced view acquires from nothing
// either, and the verdicts are the shadow's. What the device does not give the host for such a
// launch: the flag hand-off notes the engine attaches to a race (an atomic flag that handed data over
// without a fence: docs/device_global_check.md).
// A generic access may reach shared memory: a kernel may be checkable for both spaces, for either,
// or for neither.
#include <cstdint>

#include "ptx/passes/barrier_only_kernels.h"

namespace barracuda::ptx::passes {

struct GlobalCheckableKernels : BarrierOnlyKernels {
  GlobalCheckableKernels(const Module& module, uint32_t first_site_id);
};

}  // namespace barracuda::ptx::passes
