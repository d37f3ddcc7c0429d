#include "simulated_producer.h"

#include <atomic>
#include <cstring>
#include <thread>

namespace barracuda::testing {

SimulatedArena::SimulatedArena(const runtime::QueueArenaShape& shape)
    : host(runtime::make_arena_image(shape)), producers(runtime::make_producer_block(shape, 0)) {}

SimulatedProducer::SimulatedProducer(SimulatedArena& arena, uint32_t queue) {
  QueueArenaHeader header;
  std::memcpy(&header, arena.host.data(), sizeof(header));
  capacity_ = header.capacity;
  line_ = reinterpret_cast<QueueProducerLine*>(arena.producers.data() + producer_line_offset(queue));
  control_ = reinterpret_cast<QueueControl*>(arena.host.data() + arena_control_offset(queue));
  ring_ = reinterpret_cast<runtime::QueueSlot*>(arena.host.data() +
                                                arena_ring_offset(header.queue_count, header.capacity, queue));
}

uint64_t SimulatedProducer::reserve(uint64_t slots) {
  const uint64_t position = std::atomic_ref(line_->write_head).fetch_add(slots, std::memory_order_relaxed);
  const uint64_t end = position + slots;
  std::atomic_ref cache(line_->read_head_cache);
  if (end <= cache.load(std::memory_order_acquire) + capacity_) return position;
  for (;;) {
    const uint64_t read_head = std::atomic_ref(control_->read_head).load(std::memory_order_acquire);
    if (end <= read_head + capacity_) {
      uint64_t cached = cache.load(std::memory_order_relaxed);
      while (cached < read_head && !cache.compare_exchange_weak(cached, read_head, std::memory_order_release)) {
      }
      return position;
    }
    std::this_thread::yield();
  }
}

void SimulatedProducer::log(const RecordHeader& header, std::span<const runtime::QueueSlot> payload,
                            std::optional<uint64_t> sync_ticket) {
  const uint64_t ticket_slots = sync_ticket ? 1 : 0;
  const uint64_t first = reserve(ticket_slots + 1 + payload.size());
  const uint64_t record = first + ticket_slots;
  const uint64_t mask = capacity_ - 1;
  for (size_t i = 0; i < payload.size(); ++i) ring_[(record + 1 + i) & mask] = payload[i];
  // Header-last: every word but word 0 of the reservation's first slot, then that word (release).
  auto words_of = [&](uint64_t position) { return reinterpret_cast<uint64_t*>(&ring_[position & mask]); };
  auto write_tail = [](uint64_t* slot, const RecordHeader& source) {
    std::memcpy(slot + 1, reinterpret_cast<const std::byte*>(&source) + 8, sizeof(source) - 8);
  };
  write_tail(words_of(record), header);
  RecordHeader first_header = header;
  if (sync_ticket) {
    std::memcpy(words_of(record), &header, 8);
    first_header = RecordHeader{};
    first_header.op = static_cast<uint8_t>(RecordOp::kSyncTicket);
    first_header.active_mask = header.active_mask;
    first_header.site_id = header.site_id;
    first_header.block_id = header.block_id;
    first_header.warp_id = header.warp_id;
    first_header.launch_id = header.launch_id;
    first_header.base = *sync_ticket;
    write_tail(words_of(first), first_header);
  }
  uint64_t word0;
  std::memcpy(&word0, &first_header, sizeof(word0));
  std::atomic_ref(*words_of(first)).store(word0, std::memory_order_release);
}

}  // namespace barracuda::testing
