#pragma once
// Which functions of a module run only in kernels whose global memory the device can check on its
// own: barrier-only kernels (barrier_only_kernels.h says what that excludes) under this rule for
// global memory. There, within one launch, nothing orders two threads' global accesses but the
// barriers of their block: accesses of two blocks to one word race unless both read, and so do those
// of two threads of one block in one barrier interval.
//
// A kernel qualifies when something it can call, transitively, loads or stores global or generic
// memory (else there is nothing to check), and nothing it can call contains:
//   - an atomic or reduction on global or generic memory (the device checks plain global loads and
//     stores only; shared atomics without ordering semantics stay allowed, as in the shared rule);
//   - a global or generic load or store with .volatile/.relaxed/.mmio semantics (strong accesses do
//     not race with each other, which a shadow word does not know);
//   - a global or generic store of fewer than 4 bytes (the shadow has one entry per 4-byte word; two
//     threads' byte stores into one word would look like a race). Loads of any size are fine: a read
//     races only with a write, and writes cover whole words;
//   - a surface write (sust, sured).
// A generic access may reach shared memory: a kernel may be checkable for both spaces, for either,
// or for neither.
#include <cstdint>

#include "ptx/passes/barrier_only_kernels.h"

namespace barracuda::ptx::passes {

struct GlobalCheckableKernels : BarrierOnlyKernels {
  GlobalCheckableKernels(const Module& module, uint32_t first_site_id);
};

}  // namespace barracuda::ptx::passes
