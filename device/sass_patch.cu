// The SASS back end's patch module: device callbacks that the Compute Sanitizer patching API calls at
// block entry and exit, memory accesses and barriers of a module that has no PTX (runtime/
// sass_backend.h). Compiled with `nvcc --compile-as-tools-patch` into a fatbin the host loads into
// each context; the callbacks log through the device runtime's own entry points (runtime.cu, compiled
// into this module), so both back ends write the same records into the same queues.
//
// The patcher calls a callback lane by lane: measured on the H200, __activemask() inside one names
// the calling lane only. Each call therefore logs a one-lane record (32 times the records of the PTX
// back end's warp-aggregated logging for a converged warp).
#include "runtime.cu"

#include "barracuda/sass_kernel.h"

namespace {

// The API's patch result: 0 lets the thread go on (SANITIZER_PATCH_SUCCESS).
constexpr uint32_t kPatchSuccess = 0;

// The kernel's entry, or null for a launch the host gave none (a kernel launched from a graph or the
// device before its first checked launch): such a launch logs nothing. The module's runtime finds its
// queues in __barracuda_queues; every kernel's entry names the same producer block, so the store is
// idempotent.
__device__ __forceinline__ const SassKernelData* kernel_data(void* userdata) {
  const auto* kernel = static_cast<const SassKernelData*>(userdata);
  if (kernel != nullptr && __barracuda_queues != kernel->producers) __barracuda_queues = kernel->producers;
  return kernel;
}

// The value a store writes (the API passes it): the same-value filter's input, as the PTX back end's.
__device__ __forceinline__ uint64_t stored_value(const void* new_value, uint32_t bytes) {
  if (bytes == 1) return *static_cast<const uint8_t*>(new_value);
  if (bytes == 2) return *static_cast<const uint16_t*>(new_value);
  if (bytes == 4) return *static_cast<const uint32_t*>(new_value);
  return *static_cast<const uint64_t*>(new_value);
}

__device__ void log_memory(void* userdata, uint64_t pc, uint64_t address, uint32_t bytes, uint32_t flags,
                           const void* new_value, MemorySpace space) {
  const SassKernelData* kernel = kernel_data(userdata);
  if (kernel == nullptr || (flags & kSassMemoryPrefetch)) return;  // no entry; a cache prefetch reads no data
  // A read-modify-write is an atomic (the API reports atomics as reads and writes); its scope is the
  // GPU unless the flags say system. Plain accesses are weak. Fences are not visible at this level.
  const bool atomic = (flags & kSassMemoryRead) && (flags & kSassMemoryWrite);
  const RecordOp op = atomic ? RecordOp::kAtomic : (flags & kSassMemoryWrite) ? RecordOp::kStore : RecordOp::kLoad;
  const MemorySemantics sem = atomic ? MemorySemantics::kLegacy : MemorySemantics::kWeak;
  const MemoryScope scope = (flags & kSassMemoryAtomicSystem) ? MemoryScope::kSystem : MemoryScope::kGpu;
  const uint32_t size_log2 = bytes >= 16 ? 4 : bytes >= 8 ? 3 : bytes >= 4 ? 2 : bytes >= 2 ? 1 : 0;
  const bool has_value = op == RecordOp::kStore && new_value != nullptr && bytes <= 8;
  __barracuda_log_access(address, sass_site(*kernel, pc),
                         pack_access_info(op, pack_space_sem(space, sem, scope), size_log2, has_value ? kAccessHasValue : 0),
                         has_value ? stored_value(new_value, bytes) : 0);
}

}  // namespace

extern "C" __device__ __noinline__ uint32_t barracuda_sass_block_enter(void* userdata, uint64_t pc) {
  if (const SassKernelData* kernel = kernel_data(userdata)) __barracuda_log_entry(sass_site(*kernel, pc), kernel->launch_slot);
  return kPatchSuccess;
}

extern "C" __device__ __noinline__ uint32_t barracuda_sass_block_exit(void* userdata, uint64_t pc) {
  if (const SassKernelData* kernel = kernel_data(userdata)) __barracuda_log_exit(sass_site(*kernel, pc));
  return kPatchSuccess;
}

extern "C" __device__ __noinline__ uint32_t barracuda_sass_global_access(void* userdata, uint64_t pc, void* ptr,
                                                                        uint32_t bytes, uint32_t flags,
                                                                        const void* new_value) {
  log_memory(userdata, pc, reinterpret_cast<uint64_t>(ptr), bytes, flags, new_value, MemorySpace::kGlobal);
  return kPatchSuccess;
}

// `ptr` is the offset in the block's shared window, as the PTX back end logs shared addresses.
extern "C" __device__ __noinline__ uint32_t barracuda_sass_shared_access(void* userdata, uint64_t pc, void* ptr,
                                                                        uint32_t bytes, uint32_t flags,
                                                                        const void* new_value) {
  log_memory(userdata, pc, reinterpret_cast<uint64_t>(ptr), bytes, flags, new_value, MemorySpace::kShared);
  return kPatchSuccess;
}

// __syncwarp(mask), and the warp syncs of cooperative groups' tiles: one record per lane, naming the
// members. The engine joins the members' clocks at each (BlockState::warp_sync): right for a warp that
// reaches it converged, as the patcher then calls every lane here before any lane goes on.
extern "C" __device__ __noinline__ uint32_t barracuda_sass_syncwarp(void* userdata, uint64_t pc, uint32_t mask) {
  if (const SassKernelData* kernel = kernel_data(userdata)) {
    __barracuda_log_sync(sass_site(*kernel, pc), static_cast<uint32_t>(RecordOp::kWarpSync), 0, mask, 0);
  }
  return kPatchSuccess;
}

// `thread_count` 0: every thread of the block (record_ops.inc's kBarrier payload).
extern "C" __device__ __noinline__ uint32_t barracuda_sass_barrier(void* userdata, uint64_t pc, uint32_t barrier,
                                                                  uint32_t thread_count, uint32_t /*flags*/) {
  if (const SassKernelData* kernel = kernel_data(userdata)) {
    __barracuda_log_sync(sass_site(*kernel, pc), static_cast<uint32_t>(RecordOp::kBarrier), 0, barrier, thread_count);
  }
  return kPatchSuccess;
}
