#include "runtime/queue_drain.h"

#include <atomic>
#include <cstring>

#include "barracuda/queue.h"

namespace barracuda::runtime {
namespace {

std::string position_text(uint64_t position) { return "queue position " + std::to_string(position); }

// Word 0 of a slot: a record's op, mode and mask bytes; 0 until the producer publishes it.
uint64_t load_published_word(QueueSlot& slot) {
  return std::atomic_ref(*reinterpret_cast<uint64_t*>(slot.bytes.data())).load(std::memory_order_acquire);
}

}  // namespace

DrainResult drain_queue(std::span<QueueSlot> ring, uint64_t read_head, std::vector<QueueSlot>& out) {
  DrainResult result;
  result.read_head = read_head;
  const uint64_t capacity = ring.size();
  if (!valid_queue_capacity(capacity)) {
    result.error = "queue capacity " + std::to_string(capacity) + " is not a power of two >= " +
                   std::to_string(kMaxRecordSlots);
    return result;
  }
  const uint64_t mask = capacity - 1;
  uint64_t position = read_head;
  for (;;) {
    QueueSlot& first = ring[position & mask];
    if (load_published_word(first) == 0) break;
    RecordHeader header;
    std::memcpy(&header, &first, sizeof(header));
    if (auto why = describe_record_defect(header)) {
      result.error = *why + " at " + position_text(position);
      break;
    }
    const uint32_t slots = RecordView(header).slot_count();
    // Slots already taken in this pass are zero, but a corrupt ring must not make us re-read them.
    if (slots > capacity - (position - read_head)) {
      result.error = "record at " + position_text(position) + " needs " + std::to_string(slots) +
                     " slots, more than the ring has left after read head " + std::to_string(read_head);
      break;
    }
    for (uint32_t i = 0; i < slots; ++i) {
      QueueSlot& slot = ring[(position + i) & mask];
      out.push_back(slot);
      std::memset(&slot, 0, sizeof(slot));
    }
    position += slots;
    ++result.records;
  }
  result.read_head = position;
  return result;
}

}  // namespace barracuda::runtime
