#pragma once
// How large the event queues are (runtime/queue_host.h). They are page-locked host memory mapped into
// the device: never more than kMaxQueueArenaBytes for all queues of a context together, and by default
// at most 1/16 of the host's free memory, 1-64 MiB a queue. By default they start at
// kInitialQueueArenaBytes in all (a small program pins little) and grow fourfold after each launch
// that found one at least half full (the session asks grown_capacity then).
#include <cstdint>

namespace barracuda::runtime {

inline constexpr uint64_t kMaxQueueArenaBytes = uint64_t{2} << 30;
inline constexpr uint64_t kInitialQueueArenaBytes = uint64_t{64} << 20;

// Slots per queue (QueueArenaShape::capacity): a power of two with room for two of the largest records.
struct QueueSizing {
  uint64_t initial;  // the capacity queues are made with
  uint64_t limit;    // the capacity they may grow to
};

// For `queues` queues; `requested`: option queue_bytes, bytes per queue (0: automatic, from
// `free_host_bytes`). A requested size is used from the start.
QueueSizing queue_sizing(uint64_t requested, uint32_t queues, uint64_t free_host_bytes);

// The capacity after one growth step from `capacity`, at most `limit`.
uint64_t grown_capacity(uint64_t capacity, uint64_t limit);

// The host's free memory now, in bytes (0 when the system does not say).
uint64_t free_host_bytes();

}  // namespace barracuda::runtime
