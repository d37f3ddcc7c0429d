#pragma once
// How a race is named, written once for the host engine (engine/conflict_checker.h, the cross-launch
// check, the device races it receives) and the device checks (barracuda/shared_check.h,
// barracuda/global_check.h, device/): the hazard two conflicting accesses form, the class of the race
// two threads' accesses make, and whether a strong access's scope covers another thread. Header-only, no std:: types: compiled by nvcc and g++ alike
// (tests/devicecheck/race_rule_test.cpp).
#include <stdint.h>

#include "barracuda/record.h"

namespace barracuda {

enum class RaceClass : uint8_t {
  kIntraWarp = 0,   // two lanes of one warp
  kInterWarp = 1,   // two warps of one block
  kInterBlock = 2,  // two blocks
  kBranchOrdering,  // lockstep model: lanes of one warp on two divergent paths of a branch
  kScoped,          // both accesses strong, but a scope (.cta/.cluster) does not cover the other thread
  kInterDevice,     // launches on two GPUs of one process (host-side, cross-launch only)
};

// Two conflicting accesses (one location, two threads, at least one writes; an atomic counts as a
// write): an atomic with a plain access is "atomic-plain", whichever wrote; otherwise the hazard is
// named from the earlier access to the later one. Whether two atomics race at all is the caller's
// rule (scopes on the host; on the device, shared atomics cover the block and never race).
#if defined(__CUDACC__)
__host__ __device__
#endif
constexpr Hazard hazard_between(bool earlier_write, bool earlier_atomic, bool later_write, bool later_atomic) {
  if (earlier_atomic != later_atomic) return Hazard::kAtomicPlain;
  if (earlier_write && later_write) return Hazard::kWriteAfterWrite;
  return earlier_write ? Hazard::kReadAfterWrite : Hazard::kWriteAfterRead;
}

// What an access of a race did, where its hazard leaves it open: an atomic-plain pair names neither
// which access was the atomic nor whether the plain one read or wrote; the report says both.
enum class AccessOp : uint8_t { kRead, kWrite, kAtomic };
#if defined(__CUDACC__)
__host__ __device__
#endif
constexpr AccessOp access_op(bool write, bool atomic) {
  return atomic ? AccessOp::kAtomic : (write ? AccessOp::kWrite : AccessOp::kRead);
}
#if defined(__CUDACC__)
__host__ __device__
#endif
constexpr AtomicPlainSides atomic_plain_sides(AccessOp first, AccessOp second) {
  const bool atomic_first = first == AccessOp::kAtomic;
  return {atomic_first, (atomic_first ? second : first) == AccessOp::kWrite};
}

// The flags of a device race record (record.h): an atomic-plain race carries its sides, others none.
#if defined(__CUDACC__)
__host__ __device__
#endif
constexpr uint8_t race_record_flags(Hazard hazard, AccessOp first, AccessOp second) {
  return hazard == Hazard::kAtomicPlain ? pack_atomic_plain_sides(atomic_plain_sides(first, second)) : 0;
}

// The class of a race between two threads of one launch, each given as its linear block and its
// block-linear thread index, under independent thread scheduling (where lanes of one warp are threads
// like any other). The lockstep model refines kIntraWarp (engine/conflict_checker.cpp).
#if defined(__CUDACC__)
__host__ __device__
#endif
constexpr RaceClass race_class_between(uint32_t block_a, uint32_t thread_a, uint32_t block_b, uint32_t thread_b) {
  if (block_a != block_b) return RaceClass::kInterBlock;
  return thread_a / kWarpSize == thread_b / kWarpSize ? RaceClass::kIntraWarp : RaceClass::kInterWarp;
}

// Whether an access of scope `scope` by a thread of block `block_a` (in cluster `cluster_a`) includes
// a thread of block `block_b` (in `cluster_b`). Two strong accesses are morally strong, and never race,
// when each one's scope includes the other thread (PTX memory model). The clusters are read only for
// .cluster scope.
#if defined(__CUDACC__)
__host__ __device__
#endif
constexpr bool scope_covers(MemoryScope scope, uint32_t block_a, uint32_t cluster_a, uint32_t block_b,
                            uint32_t cluster_b) {
  switch (scope) {
    case MemoryScope::kCta: return block_a == block_b;
    case MemoryScope::kCluster: return cluster_a == cluster_b;
    case MemoryScope::kGpu:
    case MemoryScope::kSystem: return true;
  }
  return false;
}

}  // namespace barracuda
