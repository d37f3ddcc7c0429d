#include "runtime/queue_arena.h"

#include <cstring>

namespace barracuda::runtime {

std::optional<std::string> validate_arena_shape(const QueueArenaShape& shape) {
  if (shape.queue_count == 0) return "an arena needs at least one queue";
  if (shape.queues_per_sm == 0) return "queues_per_sm must be at least 1";
  if (!valid_queue_capacity(shape.capacity)) {
    return "queue capacity " + std::to_string(shape.capacity) + " is not a power of two >= " +
           std::to_string(kMaxRecordSlots);
  }
  // Keeps arena_bytes() far from overflow; 2^40 bytes is beyond any GPU's memory anyway.
  if (shape.capacity > (uint64_t{1} << 40) / kSlotBytes / shape.queue_count) {
    return "arena of " + std::to_string(shape.queue_count) + " queues x " + std::to_string(shape.capacity) +
           " slots is too large";
  }
  return std::nullopt;
}

namespace {

// QueueArenaHeader and QueueProducerHeader both open with the format and the shape.
template <typename Header>
Header shaped_header(const QueueArenaShape& shape) {
  Header header{};
  header.magic = kQueueArenaMagic;
  header.version = kQueueFormatVersion;
  header.queue_count = shape.queue_count;
  header.queues_per_sm = shape.queues_per_sm;
  header.capacity = shape.capacity;
  return header;
}

}  // namespace

QueueArenaHeader make_arena_header(const QueueArenaShape& shape) { return shaped_header<QueueArenaHeader>(shape); }

void write_arena_image(std::span<std::byte> memory, const QueueArenaShape& shape) {
  std::memset(memory.data(), 0, memory.size());
  const QueueArenaHeader header = make_arena_header(shape);
  std::memcpy(memory.data(), &header, sizeof(header));
}

std::vector<std::byte> make_arena_image(const QueueArenaShape& shape) {
  std::vector<std::byte> image(arena_bytes(shape.queue_count, shape.capacity));
  write_arena_image(image, shape);
  return image;
}

std::vector<std::byte> make_producer_block(const QueueArenaShape& shape, uint64_t host_arena,
                                           std::span<const uint64_t> positions) {
  std::vector<std::byte> block(sync_buckets_offset(shape.queue_count, 0));
  auto header = shaped_header<QueueProducerHeader>(shape);
  header.host_arena = host_arena;
  std::memcpy(block.data(), &header, sizeof(header));
  for (uint32_t queue = 0; queue < positions.size() && queue < shape.queue_count; ++queue) {
    QueueProducerLine line{};
    line.write_head = line.read_head_cache = positions[queue];
    std::memcpy(block.data() + producer_line_offset(queue), &line, sizeof(line));
  }
  return block;
}

namespace {

template <typename Header>
std::optional<std::string> shape_damage(const Header& seen, const QueueArenaShape& shape, const std::string& part) {
  const auto expected = shaped_header<Header>(shape);
  if (seen.magic != expected.magic || seen.version != expected.version) {
    return part + " lost its magic number and format version";
  }
  if (seen.queue_count != expected.queue_count || seen.queues_per_sm != expected.queues_per_sm ||
      seen.capacity != expected.capacity) {
    return part + " describes queues of another shape";
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> producer_header_damage(const QueueProducerHeader& seen, const QueueArenaShape& shape,
                                                  uint64_t host_arena) {
  if (auto damage = shape_damage(seen, shape, "the queues' producer header (device memory)")) return damage;
  if (seen.host_arena != host_arena) return "the queues' producer header (device memory) points elsewhere";
  return std::nullopt;
}

std::optional<std::string> arena_header_damage(const QueueArenaHeader& seen, const QueueArenaShape& shape) {
  return shape_damage(seen, shape, "the queue arena's header (host memory)");
}

std::optional<QueueArenaView> QueueArenaView::open(std::span<const std::byte> image, std::string& error) {
  QueueArenaHeader header;
  if (reinterpret_cast<uintptr_t>(image.data()) % alignof(QueueSlot) != 0) {
    error = "arena image is not 8-byte aligned";
    return std::nullopt;
  }
  if (image.size() < sizeof(header)) {
    error = "arena image of " + std::to_string(image.size()) + " bytes is smaller than its header";
    return std::nullopt;
  }
  std::memcpy(&header, image.data(), sizeof(header));
  if (header.magic != kQueueArenaMagic) {
    error = "not a queue arena (magic " + std::to_string(header.magic) + ")";
    return std::nullopt;
  }
  if (header.version != kQueueFormatVersion) {
    error = "queue arena version " + std::to_string(header.version) + ", expected " +
            std::to_string(kQueueFormatVersion);
    return std::nullopt;
  }
  if (auto why = validate_arena_shape({header.queue_count, header.queues_per_sm, header.capacity})) {
    error = *why;
    return std::nullopt;
  }
  uint64_t expected = arena_bytes(header.queue_count, header.capacity);
  if (image.size() < expected) {
    error = "arena image of " + std::to_string(image.size()) + " bytes, its header needs " + std::to_string(expected);
    return std::nullopt;
  }
  return QueueArenaView(image.first(expected), header);
}

QueueControl QueueArenaView::control(uint32_t queue) const {
  QueueControl control;
  std::memcpy(&control, image_.data() + arena_control_offset(queue), sizeof(control));
  return control;
}

std::span<const QueueSlot> QueueArenaView::ring(uint32_t queue) const {
  const std::byte* begin = image_.data() + arena_ring_offset(header_.queue_count, header_.capacity, queue);
  return {reinterpret_cast<const QueueSlot*>(begin), header_.capacity};
}

}  // namespace barracuda::runtime
