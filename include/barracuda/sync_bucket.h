#pragma once
// Sync tickets are counted per location bucket, not per launch (record_ops.inc, RecordOp::kSyncTicket):
// only operations on the same location need each other's order (the engine applies an acquire by
// joining what is stored at its own address; a fence acquires through the thread's last read, whose
// own ticket ordered it). One order per launch made every lock hand-off wait for every other one.
// Shared by device/ (the runtime hashes each lane's address) and the host engine (one turn counter per
// bucket). A bucket holds 16-byte granules: accesses of different sizes to one location (an 8-byte
// status word written whole and read as two halves) always share a bucket.
#include <stdint.h>

namespace barracuda {

// 2^14: with 2^11, unrelated locations shared buckets so often that a record waited for records of
// other locations still in other queues (H200, gpubench cub_scan at --scale 0.01: at most 7.1 M
// records held back at once and over 100 s; 1.6 M and 58 s with 2^16). 128 KiB of device memory per
// launch slot, 8 MiB in all, cleared per launch: 2^16 (32 MiB) left an app that fills the GPU to its
// last 64 MiB without room for the rest of the tool's memory (e2e_gpu_filled_by_the_app).
inline constexpr uint32_t kSyncBucketBits = 14;
inline constexpr uint32_t kSyncBuckets = 1u << kSyncBucketBits;

#if defined(__CUDACC__)
__host__ __device__
#endif
constexpr uint32_t sync_bucket(uint64_t address) {
  return static_cast<uint32_t>(((address >> 4) * 0x9E3779B97F4A7C15ull) >> (64 - kSyncBucketBits));
}

// A kSyncTicket whose lanes took tickets of different buckets (every lane taking its own lock) carries
// one word per lane in a kFull64 payload (record_ops.inc): the lane's bucket and its ticket there.
inline constexpr uint32_t kLaneTicketBucketShift = 48;
#if defined(__CUDACC__)
__host__ __device__
#endif
constexpr uint64_t lane_ticket_word(uint32_t bucket, uint64_t ticket) {
  return uint64_t{bucket} << kLaneTicketBucketShift | (ticket & ((uint64_t{1} << kLaneTicketBucketShift) - 1));
}
static_assert(kSyncBucketBits <= 64 - kLaneTicketBucketShift, "a lane ticket word names every bucket");
constexpr uint32_t lane_ticket_bucket(uint64_t word) { return static_cast<uint32_t>(word >> kLaneTicketBucketShift); }
constexpr uint64_t lane_ticket_number(uint64_t word) { return word & ((uint64_t{1} << kLaneTicketBucketShift) - 1); }

}  // namespace barracuda
