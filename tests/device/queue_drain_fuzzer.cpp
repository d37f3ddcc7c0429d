// Feeds arbitrary bytes to the host side of the queue protocol as an arena image (mapped, or read
// back from the device): opening it, draining every queue from its read head and the raw bytes from
// an arbitrary one, and decoding what comes out must never read out of bounds or crash, whatever the
// device (or corruption) left there.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "runtime/queue_arena.h"
#include "runtime/queue_drain.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace barracuda;
  using namespace barracuda::runtime;
  if (size < 8) return 0;
  uint64_t read_head;
  std::memcpy(&read_head, data, 8);
  // Copy into aligned memory, as the mapped arena or a device read-back buffer would be.
  std::vector<QueueSlot> storage((size - 8 + sizeof(QueueSlot) - 1) / sizeof(QueueSlot));
  if (!storage.empty()) std::memcpy(storage.data(), data + 8, size - 8);
  std::span<const std::byte> image(reinterpret_cast<const std::byte*>(storage.data()), size - 8);

  std::vector<QueueSlot> out;
  std::string error;
  if (auto arena = QueueArenaView::open(image, error)) {
    const QueueArenaHeader& header = arena->header();
    for (uint32_t queue = 0; queue < header.queue_count && queue < 64; ++queue) {
      // The drain zeroes what it takes: it gets the storage's own slots, which the view only reads.
      const uint64_t first_slot = arena_ring_offset(header.queue_count, header.capacity, queue) / sizeof(QueueSlot);
      drain_queue({storage.data() + first_slot, header.capacity}, arena->control(queue).read_head, out);
    }
  }
  // The raw bytes as a ring of their own (any size, power of two or not).
  drain_queue(storage, read_head, out);
  RecordCursor cursor(out);
  uint64_t sum = 0;
  while (auto record = cursor.next()) {
    for (uint64_t address : lane_addresses(*record)) sum += address;
  }
  return sum == 42 ? 0 : 0;
}
