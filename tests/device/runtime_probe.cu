// Kernels that call the device runtime's entry points directly with known patterns; compiled to PTX,
// linked with the embedded runtime PTX by nvJitLink, and checked by device_runtime_gpu_test.cpp.
// Site ids name the expected record (ProbeSite in runtime_probe_sites.h).
#include "../../device/entry_points.cuh"
#include "barracuda/queue.h"
#include "runtime_probe_sites.h"

using namespace barracuda;
using namespace barracuda::probe;

namespace {

__device__ uint32_t access_info(RecordOp op, MemorySpace space, uint32_t size_log2, uint32_t extra = 0) {
  return pack_access_info(op, pack_space_sem(space, MemorySemantics::kWeak, MemoryScope::kCta), size_log2, extra);
}

// Independent thread scheduling does not promise that lanes reconverge after the previous call, and the
// runtime logs the lanes that are converged when it runs: the sites whose checks expect the full warp
// converge it first.
__device__ void log(uint64_t address, ProbeSite site, uint32_t info, uint64_t value = 0) {
  __barracuda_log_access(address, static_cast<uint32_t>(site), info, value);
}
__device__ void log_converged(uint64_t address, ProbeSite site, uint32_t info, uint64_t value = 0) {
  __syncwarp();
  log(address, site, info, value);
}

}  // namespace

// One block of kPatternThreads threads; `data` is global memory the kernel never dereferences
// except through the logged generic pointer.
extern "C" __global__ void probe_patterns(uint64_t* data) {
  __shared__ uint32_t shared_words[kPatternThreads];
  const uint32_t lane = threadIdx.x % 32;
  const uint64_t base = reinterpret_cast<uint64_t>(data);
  __barracuda_log_entry(static_cast<uint32_t>(ProbeSite::kEntry), 0);  // launch slot 0, which the harness leaves zeroed

  log_converged(base + 8 * threadIdx.x, ProbeSite::kCoalesced, access_info(RecordOp::kLoad, MemorySpace::kGlobal, 3));
  log_converged(base + 4 * lane * lane, ProbeSite::kScattered, access_info(RecordOp::kLoad, MemorySpace::kGlobal, 2));
  log_converged(base + (uint64_t{lane} << 33) + lane * lane, ProbeSite::kFar, access_info(RecordOp::kLoad, MemorySpace::kGlobal, 2));
  if (lane % 4 == 0) {
    log(base, ProbeSite::kDivergentSameValue,
        access_info(RecordOp::kStore, MemorySpace::kGlobal, 3, kAccessHasValue), 42);
  }
  log_converged(base, ProbeSite::kConflictDifferentValues, access_info(RecordOp::kStore, MemorySpace::kGlobal, 3, kAccessHasValue),
      lane);
  log_converged(reinterpret_cast<uint64_t>(&shared_words[threadIdx.x]), ProbeSite::kGenericShared,
      access_info(RecordOp::kStore, MemorySpace::kGlobal, 2, kAccessGeneric));
  log_converged(base + 8 * threadIdx.x, ProbeSite::kGenericGlobal,
      access_info(RecordOp::kAtomic, MemorySpace::kShared, 3, kAccessGeneric));

  const uint8_t legacy = pack_space_sem(MemorySpace::kGlobal, MemorySemantics::kLegacy, MemoryScope::kGpu);
  log_converged(base + 8 * threadIdx.x, ProbeSite::kLegacyAtomic, pack_access_info(RecordOp::kAtomic, legacy, 3, 0));
  log_converged(base + 8 * threadIdx.x, ProbeSite::kLegacyAtomicNoTicket,
      pack_access_info(RecordOp::kAtomic, legacy, 3, kAccessNoSyncTicket));
  log_converged(base + 8 * threadIdx.x, ProbeSite::kSpinRead,
      access_info(RecordOp::kLoad, MemorySpace::kGlobal, 3, kAccessSpinRead));

  __barracuda_log_sync(static_cast<uint32_t>(ProbeSite::kBarrier), static_cast<uint32_t>(RecordOp::kBarrier), 0, 0, 0);
  __syncthreads();
  __barracuda_log_sync(static_cast<uint32_t>(ProbeSite::kFence), static_cast<uint32_t>(RecordOp::kFence),
                       pack_space_sem(MemorySpace::kGlobal, MemorySemantics::kAcqRel, MemoryScope::kGpu), base, 0);
  __syncwarp();
  __barracuda_log_branch(static_cast<uint32_t>(ProbeSite::kBranch), lane < kBranchTakenLanes);
  __syncwarp();
  __barracuda_log_reconverge(static_cast<uint32_t>(ProbeSite::kReconverge));
  __syncwarp();
  __barracuda_log_exit(static_cast<uint32_t>(ProbeSite::kExit));
}

// Many warps each logging `records` accesses of rotating encodings into small queues: exercises
// wrap-around, multi-slot records and back-pressure while the host drains concurrently. The
// record's base encodes (block, warp lane 0 thread, sequence) so the host checks order and integrity.
extern "C" __global__ void probe_flood(uint32_t records) {
  const uint32_t lane = threadIdx.x % 32;
  __barracuda_log_entry(static_cast<uint32_t>(ProbeSite::kEntry), 0);  // launch slot 0, which the harness leaves zeroed
  for (uint32_t sequence = 0; sequence < records; ++sequence) {
    uint64_t tag = flood_tag(blockIdx.x, threadIdx.x / 32, sequence);
    uint64_t address = tag;
    switch (sequence % 3) {
      case 0: address += 4 * lane; break;                       // affine
      case 1: address += 4 * lane * lane; break;                // delta32
      default: address += (uint64_t{lane} << 36); break;       // full64
    }
    log_converged(address, ProbeSite::kFlood, access_info(RecordOp::kLoad, MemorySpace::kGlobal, 2));
  }
  __barracuda_log_exit(static_cast<uint32_t>(ProbeSite::kExit));
}
