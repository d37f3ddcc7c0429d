#include "runtime/live_arena.h"

#include <atomic>

#include "runtime/queue_drain.h"

namespace barracuda::runtime {

void LiveArena::begin_launch(uint16_t launch_id) {
  // The GPU reads these over the bus when the kernel starts, after the launch call that follows.
  std::atomic_ref<uint32_t>(header().launch_id).store(launch_id, std::memory_order_release);
  std::atomic_ref<uint64_t>(header().threads_exited).store(0, std::memory_order_release);
  std::atomic_ref<uint64_t>(header().next_sync_ticket).store(0, std::memory_order_release);
}

uint64_t LiveArena::threads_exited() const {
  return std::atomic_ref<uint64_t>(header().threads_exited).load(std::memory_order_acquire);
}

QueueDrain LiveArena::drain(uint32_t queue, std::vector<QueueSlot>& scratch) {
  scratch.clear();
  QueueControl& ctl = control(queue);
  const QueueSnapshot snapshot{std::atomic_ref<uint64_t>(ctl.read_head).load(std::memory_order_relaxed),
                               std::atomic_ref<uint64_t>(ctl.commit_index).load(std::memory_order_acquire)};
  if (snapshot.commit_index == snapshot.read_head) return {};
  const auto* ring = reinterpret_cast<const QueueSlot*>(
      memory_ + arena_ring_offset(shape_.queue_count, shape_.capacity, queue));
  DrainResult result = drain_queue({ring, shape_.capacity}, snapshot, scratch);
  QueueDrain drained{result.records, scratch.size(), std::nullopt};
  uint64_t read_head = result.read_head;
  if (result.error) {
    drained.error = "event queue " + std::to_string(queue) + ": " + *result.error;
    // Commits always end on a record boundary, so the next drain starts framing afresh.
    read_head = snapshot.commit_index;
  }
  // Slots are copied out before the producers may reuse them: only now hand them back.
  std::atomic_ref<uint64_t>(ctl.read_head).store(read_head, std::memory_order_release);
  return drained;
}

}  // namespace barracuda::runtime
