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

// Makes `memory` (arena_bytes() bytes) a zeroed arena with its header filled in (launch 0, nothing
// logged). `shape` must be valid.
void write_arena_image(std::span<std::byte> memory, const QueueArenaShape& shape);
// The same in a new buffer.
std::vector<std::byte> make_arena_image(const QueueArenaShape& shape);

// The initial producer block (device memory, barracuda/queue.h) of an arena of `shape` whose host
// part the device reaches at `host_arena`: launch 0, nothing reserved. `shape` must be valid.
std::vector<std::byte> make_producer_block(const QueueArenaShape& shape, uint64_t host_arena);

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
