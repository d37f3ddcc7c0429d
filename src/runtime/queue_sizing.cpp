#include "runtime/queue_sizing.h"

#include <unistd.h>

#include <algorithm>
#include <bit>

#include "barracuda/queue.h"

namespace barracuda::runtime {
namespace {

constexpr uint64_t kQueueGrowth = 4;
constexpr uint64_t kFreeMemoryShare = 16;
constexpr uint64_t kMinAutoQueueBytes = uint64_t{1} << 20;
constexpr uint64_t kMaxAutoQueueBytes = uint64_t{64} << 20;

// Slots per queue for `bytes` per queue. (The floor was kMaxRecordSlots * 2 = 18 before this file
// existed: a tiny queue_bytes then asked for queues the arena refuses, whose capacity must be a power
// of two.)
uint64_t capacity_of(uint64_t bytes) {
  return std::max<uint64_t>(std::bit_floor(bytes / kSlotBytes), std::bit_ceil(uint64_t{kMaxRecordSlots} * 2));
}

}  // namespace

QueueSizing queue_sizing(uint64_t requested, uint32_t queues, uint64_t free_host_bytes) {
  queues = std::max(queues, 1u);
  if (requested > 0) {
    const uint64_t capacity = capacity_of(std::min<uint64_t>(requested, kMaxQueueArenaBytes / queues));
    return {capacity, capacity};
  }
  const uint64_t share = std::min(free_host_bytes / kFreeMemoryShare, kMaxQueueArenaBytes) / queues;
  const uint64_t limit = capacity_of(std::clamp(share, kMinAutoQueueBytes, kMaxAutoQueueBytes));
  return {std::min(limit, capacity_of(kInitialQueueArenaBytes / queues)), limit};
}

uint64_t grown_capacity(uint64_t capacity, uint64_t limit) { return std::min(capacity * kQueueGrowth, limit); }

uint64_t free_host_bytes() {
  const long pages = sysconf(_SC_AVPHYS_PAGES), page_bytes = sysconf(_SC_PAGESIZE);
  return pages > 0 && page_bytes > 0 ? uint64_t(pages) * uint64_t(page_bytes) : 0;
}

}  // namespace barracuda::runtime
