#pragma once
// The queue arena: device memory the instrumented kernels log into and the host drains.
// Shared by device/ (CUDA C++) and src/runtime (host C++), like record.h: plain fixed-width fields.
//
// Arena layout (one allocation; the host writes its address into the instrumented module's
// `.global .u64 __barracuda_queues` after loading it, so kernels need no extra parameter):
//
//   offset 0                      QueueArenaHeader            (128 bytes)
//   offset 128 + 128 * q          QueueControl of queue q     (128 bytes each)
//   arena_slots_offset(n) + q * capacity * 32
//                                 the ring of `capacity` 32-byte slots of queue q
//
// Protocol of one queue (positions are monotonic 64-bit slot counters; slot = position & (capacity-1)):
//   1. reserve: one leader lane per warp does write_head += n (one atomic for the whole warp record);
//   2. back-pressure: the leader spins until position + n - read_head <= capacity, so nothing
//      unread is ever overwritten; the GPU waits for the host instead of dropping events;
//   3. fill: every active lane writes its part of the record (header by the leader, one address
//      or delta per lane); records may wrap around the end of the ring;
//   4. commit: the leader waits until commit_index == position (earlier reservations are complete),
//      then publishes commit_index = position + n with release semantics.
// The host reads slots [read_head, commit_index), which are always whole records in reservation
// order, then stores the new read_head back.
// A record that takes_sync_ticket() accepts is preceded, in the same reservation, by a kSyncTicket
// header carrying next_sync_ticket++ (record.h): the order of synchronisation across queues.
//
// End of a launch: each thread adds itself to `threads_exited` when it logs its kWarpExit record,
// after that record is committed. The host knows the launch's thread count; once threads_exited
// reaches it, draining every queue up to the commit index read *after* that counter yields every
// event of the launch.

#include <stddef.h>
#include <stdint.h>

#include "barracuda/record.h"

namespace barracuda {

inline constexpr uint32_t kQueueArenaMagic = 0xBA7AC0DAu;
inline constexpr uint32_t kQueueFormatVersion = 2;  // 2: next_sync_ticket
inline constexpr uint32_t kQueueLineBytes = 128;  // producer and consumer fields never share a cache line

// Names the instrumentation passes and the host use to reach the device runtime (device/runtime.cu).
#define BARRACUDA_QUEUES_SYMBOL "__barracuda_queues"

struct QueueArenaHeader {
  uint32_t magic;           // kQueueArenaMagic
  uint32_t version;         // kQueueFormatVersion
  uint32_t queue_count;     // number of QueueControl blocks and rings
  uint32_t queues_per_sm;   // a block logs into queue (smid * queues_per_sm + block % queues_per_sm) % queue_count
  uint64_t capacity;        // slots per ring, a power of two >= kMaxRecordSlots
  uint32_t launch_id;       // host-set before each launch; copied into every record's launch_id
  uint32_t reserved0;
  uint64_t threads_exited;  // device-incremented: threads whose kWarpExit record is committed
  uint64_t next_sync_ticket;  // device-incremented, host-reset per launch: the next RecordOp::kSyncTicket
  uint8_t padding[kQueueLineBytes - 48];
};
static_assert(sizeof(QueueArenaHeader) == kQueueLineBytes, "the arena header fills one line");
static_assert(offsetof(QueueArenaHeader, capacity) == 16 && offsetof(QueueArenaHeader, launch_id) == 24 &&
                  offsetof(QueueArenaHeader, threads_exited) == 32 &&
                  offsetof(QueueArenaHeader, next_sync_ticket) == 40,
              "layout is shared with device code: change it only with kQueueFormatVersion");

struct QueueControl {
  // Producer line (device atomics).
  uint64_t write_head;    // slots reserved so far
  uint64_t commit_index;  // slots complete so far; advances in reservation order
  uint8_t producer_padding[kQueueLineBytes / 2 - 16];
  // Consumer line (written only by the host).
  uint64_t read_head;  // slots the host has consumed
  uint8_t consumer_padding[kQueueLineBytes / 2 - 8];
};
static_assert(sizeof(QueueControl) == kQueueLineBytes, "one control block per line pair");
static_assert(offsetof(QueueControl, commit_index) == 8 && offsetof(QueueControl, read_head) == 64,
              "layout is shared with device code: change it only with kQueueFormatVersion");

// The longest record (header + 32 absolute addresses); a ring must hold at least one.
inline constexpr uint32_t kMaxRecordSlots = record_slots(AddressMode::kFull64);

constexpr uint64_t arena_control_offset(uint32_t queue) {
  return sizeof(QueueArenaHeader) + uint64_t{queue} * sizeof(QueueControl);
}
constexpr uint64_t arena_slots_offset(uint32_t queue_count) { return arena_control_offset(queue_count); }
constexpr uint64_t arena_ring_offset(uint32_t queue_count, uint64_t capacity, uint32_t queue) {
  return arena_slots_offset(queue_count) + uint64_t{queue} * capacity * kSlotBytes;
}
constexpr uint64_t arena_bytes(uint32_t queue_count, uint64_t capacity) {
  return arena_ring_offset(queue_count, capacity, queue_count);
}
constexpr bool valid_queue_capacity(uint64_t capacity) {
  return capacity >= kMaxRecordSlots && (capacity & (capacity - 1)) == 0;
}

// Packing of the `access_info` argument of __barracuda_log_access (device-only; the record keeps the
// fields in RecordHeader form):
//   bits 0-7   RecordOp (kLoad, kStore, kAtomic, kReduction, kAsyncCopy)
//   bits 8-15  space_sem as pack_space_sem() packs it
//   bits 16-18 log2(bytes per lane)
//   bit  19    kAccessGeneric: the address is generic; the runtime classifies it (isspacep) and
//              overrides the MemorySpace bits
//   bit  20    kAccessHasValue: `value` holds the stored value (enables the same-value flag)
inline constexpr uint32_t kAccessGeneric = 1u << 19;
inline constexpr uint32_t kAccessHasValue = 1u << 20;

constexpr uint32_t pack_access_info(RecordOp op, uint8_t space_sem, uint32_t size_log2, uint32_t extra_bits) {
  return static_cast<uint32_t>(op) | (uint32_t{space_sem} << 8) | ((size_log2 & 0x7u) << 16) | extra_bits;
}

}  // namespace barracuda
