#pragma once
// Host handle on the queue arena's images (barracuda/queue.h): creates the initial host arena and
// producer block, and checks and slices an arena image (e.g. a copy read back from the device).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "barracuda/queue.h"
#include "runtime/queue_record.h"

namespace barracuda::runtime {

struct QueueArenaShape {
  uint32_t queue_count;
  uint32_t queues_per_sm;
  uint64_t capacity;  // slots per queue: a power of two >= kMaxRecordSlots
};

// Why `shape` cannot describe an arena, or nullopt.
std::optional<std::string> validate_arena_shape(const QueueArenaShape& shape);

// The arena header of `shape`: format and shape, no thread exited.
QueueArenaHeader make_arena_header(const QueueArenaShape& shape);
// Makes `memory` (arena_bytes() bytes) a zeroed arena with its header filled in (launch 0, nothing
// logged). `shape` must be valid.
void write_arena_image(std::span<std::byte> memory, const QueueArenaShape& shape);
// The same in a new buffer.
std::vector<std::byte> make_arena_image(const QueueArenaShape& shape);

// The producer block (device memory, barracuda/queue.h) of an arena of `shape` whose host part the
// device reaches at `host_arena`, at launch 0: nothing reserved, or (`positions`, one per queue) every
// slot up to positions[q] reserved and consumed. `shape` must be valid. Only the part before the sync
// ticket counters (sync_buckets_offset(n, 0); 8 MiB more in all, which each launch clears for its own
// slot before it runs): the device memory holds producer_block_bytes(n).
std::vector<std::byte> make_producer_block(const QueueArenaShape& shape, uint64_t host_arena,
                                           std::span<const uint64_t> positions = {});

// What a stray write changed in the fields the host set once and the GPU only reads (format, shape,
// where the host arena is), in a producer header read back from the device or in the host arena's
// header; nullopt when they are as the host wrote them. The drain trusts them: a kernel that wrote
// over them (an out-of-bounds store) leaves its launch's records unreliable.
std::optional<std::string> producer_header_damage(const QueueProducerHeader& seen, const QueueArenaShape& shape,
                                                  uint64_t host_arena);
std::optional<std::string> arena_header_damage(const QueueArenaHeader& seen, const QueueArenaShape& shape);

// Read-only view of an arena image in host memory (e.g. copied from the device).
class QueueArenaView {
 public:
  // Checks magic, version, shape and size; nullopt with `error` set when the image is not an arena.
  static std::optional<QueueArenaView> open(std::span<const std::byte> image, std::string& error);

  const QueueArenaHeader& header() const { return header_; }
  QueueControl control(uint32_t queue) const;
  std::span<const QueueSlot> ring(uint32_t queue) const;

 private:
  QueueArenaView(std::span<const std::byte> image, const QueueArenaHeader& header) : image_(image), header_(header) {}
  std::span<const std::byte> image_;
  QueueArenaHeader header_;
};

}  // namespace barracuda::runtime
