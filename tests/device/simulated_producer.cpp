#include "simulated_producer.h"

#include <atomic>
#include <cstring>
#include <thread>

namespace barracuda::testing {
namespace {

QueueControl* control_of(std::span<std::byte> arena, uint32_t queue) {
  return reinterpret_cast<QueueControl*>(arena.data() + arena_control_offset(queue));
}

}  // namespace

SimulatedProducer::SimulatedProducer(std::span<std::byte> arena, uint32_t queue) {
  QueueArenaHeader header;
  std::memcpy(&header, arena.data(), sizeof(header));
  capacity_ = header.capacity;
  control_ = control_of(arena, queue);
  ring_ = reinterpret_cast<runtime::QueueSlot*>(arena.data() +
                                                arena_ring_offset(header.queue_count, header.capacity, queue));
}

void SimulatedProducer::log(const RecordHeader& header, std::span<const runtime::QueueSlot> payload) {
  const uint64_t slots = 1 + payload.size();
  // reserve
  uint64_t position = std::atomic_ref(control_->write_head).fetch_add(slots, std::memory_order_relaxed);
  // back-pressure
  while (position + slots - std::atomic_ref(control_->read_head).load(std::memory_order_acquire) > capacity_) {
    std::this_thread::yield();
  }
  // fill
  const uint64_t mask = capacity_ - 1;
  std::memcpy(&ring_[position & mask], &header, sizeof(header));
  for (size_t i = 0; i < payload.size(); ++i) ring_[(position + 1 + i) & mask] = payload[i];
  // commit, in reservation order
  std::atomic_ref commit(control_->commit_index);
  while (commit.load(std::memory_order_acquire) != position) std::this_thread::yield();
  commit.store(position + slots, std::memory_order_release);
}

void count_thread_exit(std::span<std::byte> arena) {
  auto* header = reinterpret_cast<QueueArenaHeader*>(arena.data());
  std::atomic_ref(header->threads_exited).fetch_add(1, std::memory_order_release);
}

uint64_t load_commit_index(std::span<std::byte> arena, uint32_t queue) {
  return std::atomic_ref(control_of(arena, queue)->commit_index).load(std::memory_order_acquire);
}

void store_read_head(std::span<std::byte> arena, uint32_t queue, uint64_t read_head) {
  std::atomic_ref(control_of(arena, queue)->read_head).store(read_head, std::memory_order_release);
}

}  // namespace barracuda::testing
