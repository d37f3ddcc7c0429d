#pragma once
// Distributed shared memory (MemorySpace::kCluster) is logged by generic address (device/runtime.cu),
// and every cluster of a launch sees its ranks' shared memory at the same generic addresses: one
// address names a different word in each cluster. The engine keys such a word by its cluster too,
// above the address bits of user space, and reports the address the program used.
#include <cstdint>

namespace barracuda::engine {

inline constexpr uint32_t kClusterKeyShift = 47;  // x86-64 and CUDA user-space addresses are below 2^47
inline constexpr uint64_t kGenericAddressMask = (uint64_t{1} << kClusterKeyShift) - 1;

// The shadow key of `generic` in cluster `cluster` (clusters 2^17 apart share keys).
constexpr uint64_t distributed_shared_key(uint64_t generic, uint32_t cluster) {
  return uint64_t{cluster} << kClusterKeyShift | (generic & kGenericAddressMask);
}
constexpr uint64_t generic_address_of(uint64_t key) { return key & kGenericAddressMask; }

static_assert(generic_address_of(distributed_shared_key(0x7f3d00000400, 5)) == 0x7f3d00000400 &&
              distributed_shared_key(0x7f3d00000400, 1) != distributed_shared_key(0x7f3d00000400, 0));

}  // namespace barracuda::engine
