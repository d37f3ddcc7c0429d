#pragma once
// What the probe kernels (runtime_probe.cu) log, shared with the host checks.
#include <stdint.h>

namespace barracuda::probe {

enum class ProbeSite : uint32_t {
  kEntry = 1,
  kCoalesced,                // lane i loads data + 8 * thread: affine, stride 8
  kScattered,                // lane i loads data + 4 * i^2: delta32
  kFar,                      // lane i loads data + i << 33 + i^2: full64
  kDivergentSameValue,       // lanes i % 4 == 0 store 42 to data[0]: conflict + same value
  kConflictDifferentValues,  // all lanes store their lane id to data[0]: conflict only
  kGenericShared,            // generic pointer to shared_words[thread]: classified shared, stride 4
  kGenericGlobal,            // generic pointer to data + 8 * thread: classified global
  kBarrier,
  kFence,  // its payload (the thread's last read) is data[0]: ticketed in data[0]'s bucket
  kBranch,  // taken by lanes < kBranchTakenLanes
  kReconverge,
  kExit,
  kFlood,
  kLegacyAtomic,            // legacy atom on data + 8 * thread: one record per location bucket, each ticketed
  kLegacyAtomicNoTicket,    // the same marked kAccessNoSyncTicket: no ticket
  kSpinRead,                // a load marked kAccessSpinRead: the record carries kFlagSpinRead
};

inline constexpr uint32_t kPatternThreads = 64;
inline constexpr uint32_t kBranchTakenLanes = 10;

// Flood records: the tag is the base of lane 0, far above any real address the check could confuse.
constexpr uint64_t flood_tag(uint32_t block, uint32_t warp, uint32_t sequence) {
  return (uint64_t{block} << 48) | (uint64_t{warp} << 40) | (uint64_t{sequence} << 12);
}

}  // namespace barracuda::probe
