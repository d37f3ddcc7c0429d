#include "runtime/queue_drain.h"

#include <cstring>

#include "barracuda/queue.h"

namespace barracuda::runtime {
namespace {

std::string position_text(uint64_t position) { return "queue position " + std::to_string(position); }

}  // namespace

DrainResult drain_queue(std::span<const QueueSlot> ring, QueueSnapshot snapshot, std::vector<QueueSlot>& out) {
  DrainResult result;
  result.read_head = snapshot.read_head;
  const uint64_t capacity = ring.size();
  if (!valid_queue_capacity(capacity)) {
    result.error = "queue capacity " + std::to_string(capacity) + " is not a power of two >= " +
                   std::to_string(kMaxRecordSlots);
    return result;
  }
  if (snapshot.commit_index < snapshot.read_head || snapshot.commit_index - snapshot.read_head > capacity) {
    result.error = "inconsistent queue snapshot: read head " + std::to_string(snapshot.read_head) +
                   ", commit index " + std::to_string(snapshot.commit_index) + ", capacity " +
                   std::to_string(capacity);
    return result;
  }
  const uint64_t mask = capacity - 1;
  uint64_t position = snapshot.read_head;
  while (position < snapshot.commit_index) {
    RecordHeader header;
    std::memcpy(&header, &ring[position & mask], sizeof(header));
    if (auto why = validate_record_header(header)) {
      result.error = *why + " at " + position_text(position);
      break;
    }
    uint32_t slots = record_slots(record_address_mode(header));
    if (position + slots > snapshot.commit_index) {
      result.error = "record at " + position_text(position) + " needs " + std::to_string(slots) +
                     " slots but the commit index is " + std::to_string(snapshot.commit_index);
      break;
    }
    for (uint32_t i = 0; i < slots; ++i) out.push_back(ring[(position + i) & mask]);
    position += slots;
    ++result.records;
  }
  result.read_head = position;
  return result;
}

}  // namespace barracuda::runtime
