#include "runtime/live_arena.h"

#include <atomic>

#include "runtime/queue_drain.h"

namespace barracuda::runtime {
namespace {

std::string discarded_message(uint32_t queue) {
  return "event queue " + std::to_string(queue) + " was discarded after a malformed record; its events are lost";
}

}  // namespace

LiveArena::LiveArena(std::byte* memory, const QueueArenaShape& shape)
    : memory_(memory), shape_(shape), discarded_(shape.queue_count, 0) {}

uint64_t LiveArena::read_head(uint32_t queue) const {
  return std::atomic_ref<uint64_t>(control(queue).read_head).load(std::memory_order_acquire);
}

std::optional<std::string> LiveArena::header_damage() const { return arena_header_damage(header(), shape_); }

void LiveArena::restore_header() {
  header() = make_arena_header(shape_);
}

QueueDrain LiveArena::drain(uint32_t queue, std::vector<QueueSlot>& scratch) {
  scratch.clear();
  std::atomic_ref<uint64_t> read_head(control(queue).read_head);
  const uint64_t from = read_head.load(std::memory_order_relaxed);
  if (discarded_[queue] != 0) {
    // Whatever the producers write here is unframed: hand them a ring's worth of slots per pass.
    read_head.store(from + shape_.capacity, std::memory_order_release);
    return {0, 0, discarded_message(queue)};
  }
  auto* ring = reinterpret_cast<QueueSlot*>(memory_ + arena_ring_offset(shape_.queue_count, shape_.capacity, queue));
  DrainResult result = drain_queue({ring, shape_.capacity}, from, scratch);
  QueueDrain drained{result.records, scratch.size(), std::nullopt};
  if (result.error) {
    drained.error = "event queue " + std::to_string(queue) + ": " + *result.error;
    discarded_[queue] = 1;
  }
  // The slots were copied out and zeroed before the producers may reuse them: only now hand them back.
  if (result.read_head != from) read_head.store(result.read_head, std::memory_order_release);
  return drained;
}

}  // namespace barracuda::runtime
