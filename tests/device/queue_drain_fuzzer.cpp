// Feeds arbitrary bytes to the host side of the queue protocol as an arena image read back from the
// device: opening it, draining every queue from arbitrary snapshots, and decoding what comes out
// must never read out of bounds or crash, whatever the device (or corruption) left there.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "runtime/queue_arena.h"
#include "runtime/queue_drain.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace barracuda;
  using namespace barracuda::runtime;
  if (size < 16) return 0;
  uint64_t read_head, commit_index;
  std::memcpy(&read_head, data, 8);
  std::memcpy(&commit_index, data + 8, 8);
  // Copy into aligned memory, as a device read-back buffer would be.
  std::vector<QueueSlot> storage((size - 16 + sizeof(QueueSlot) - 1) / sizeof(QueueSlot));
  if (!storage.empty()) std::memcpy(storage.data(), data + 16, size - 16);
  std::span<const std::byte> image(reinterpret_cast<const std::byte*>(storage.data()), size - 16);

  std::vector<QueueSlot> out;
  std::string error;
  if (auto arena = QueueArenaView::open(image, error)) {
    for (uint32_t queue = 0; queue < arena->header().queue_count && queue < 64; ++queue) {
      QueueControl control = arena->control(queue);
      drain_queue(arena->ring(queue), {control.read_head, control.commit_index}, out);
    }
  }
  // The raw bytes as a ring of their own (any size, power of two or not).
  drain_queue(std::span<const QueueSlot>(storage.data(), storage.size()), {read_head, commit_index}, out);
  RecordCursor cursor(out);
  uint64_t sum = 0;
  while (auto record = cursor.next()) {
    for (uint64_t address : record->lane_addresses()) sum += address;
  }
  return sum == 42 ? 0 : 0;
}
