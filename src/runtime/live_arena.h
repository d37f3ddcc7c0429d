#pragma once
// The consumer's handle on a queue arena (barracuda/queue.h) that producers write into while it is
// read: mapped page-locked memory the GPU logs into, or a host image that test threads log into.
// Each queue may be drained by one thread at a time; different queues by different threads at once.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/queue_arena.h"
#include "runtime/queue_record.h"

namespace barracuda::runtime {

// What one drain of one queue produced.
struct QueueDrain {
  uint64_t records = 0;  // whole records appended to the scratch buffer
  uint64_t slots = 0;    // their slots (kSlotBytes each)
  // A malformed record: the queue is discarded from then on (its slots are freed on every drain
  // without being read, so the producers never wait for slots the host will not read).
  std::optional<std::string> error;
};

class LiveArena {
 public:
  // `memory` holds an arena of `shape` initialised like make_arena_image(shape), and stays at this
  // address for the LiveArena's life. `shape` must be valid (validate_arena_shape).
  LiveArena(std::byte* memory, const QueueArenaShape& shape);

  const QueueArenaShape& shape() const { return shape_; }
  std::byte* memory() const { return memory_; }

  // Slots of `queue` consumed so far.
  uint64_t read_head(uint32_t queue) const;
  // arena_header_damage() of the live header; restore_header() writes its constant fields back.
  std::optional<std::string> header_damage() const;
  void restore_header();

  // Replaces `scratch` with every record published to `queue` so far, in order, each contiguous,
  // and frees (zeroes) their slots for the producers.
  QueueDrain drain(uint32_t queue, std::vector<QueueSlot>& scratch);

 private:
  QueueArenaHeader& header() const { return *reinterpret_cast<QueueArenaHeader*>(memory_); }
  QueueControl& control(uint32_t queue) const {
    return *reinterpret_cast<QueueControl*>(memory_ + arena_control_offset(queue));
  }

  std::byte* memory_;
  QueueArenaShape shape_;
  std::vector<uint8_t> discarded_;  // per queue, touched only by the thread draining that queue
};

}  // namespace barracuda::runtime
