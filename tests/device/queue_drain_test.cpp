#include "runtime/queue_drain.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <optional>
#include <set>
#include <thread>
#include <vector>

#include "runtime/live_arena.h"
#include "runtime/queue_arena.h"
#include "simulated_producer.h"
#include "tagged_records.h"

namespace barracuda::runtime {
namespace {

using testing::SimulatedProducer;
using testing::expect_tagged;
using testing::mixed_mode;
using testing::tagged_record;

class QueueDrainTest : public ::testing::Test {
 protected:
  void make_arena(uint64_t capacity) {
    capacity_ = capacity;
    arena_.emplace(QueueArenaShape{1, 1, capacity});
  }
  std::span<QueueSlot> ring() {
    return {reinterpret_cast<QueueSlot*>(arena_->host.data() + arena_ring_offset(1, capacity_, 0)), capacity_};
  }
  QueueProducerLine& producer_line() {
    return *reinterpret_cast<QueueProducerLine*>(arena_->producers.data() + producer_line_offset(0));
  }
  // The host's half: drain, then hand the zeroed slots back (release), as LiveArena::drain does.
  DrainResult drain(std::vector<QueueSlot>& out) {
    DrainResult result = drain_queue(ring(), read_head_, out);
    read_head_ = result.read_head;
    auto* control = reinterpret_cast<QueueControl*>(arena_->host.data() + arena_control_offset(0));
    std::atomic_ref(control->read_head).store(read_head_, std::memory_order_release);
    return result;
  }
  bool ring_is_zero() {
    for (const QueueSlot& slot : ring()) {
      for (std::byte byte : slot.bytes) {
        if (byte != std::byte{0}) return false;
      }
    }
    return true;
  }
  std::optional<testing::SimulatedArena> arena_;
  uint64_t capacity_ = 0;
  uint64_t read_head_ = 0;
};

TEST_F(QueueDrainTest, RecordWrappingAroundTheRingEndComesOutContiguous) {
  make_arena(16);
  SimulatedProducer producer(*arena_, 0);
  std::vector<QueueSlot> out;
  // 1 + 5 + 1 + 5 + 1 + 1 = 14 slots, drained; then a 9-slot record occupies positions 14..22.
  uint32_t sequence = 0;
  for (AddressMode mode : {AddressMode::kAffine, AddressMode::kDelta32, AddressMode::kAffine, AddressMode::kDelta32,
                           AddressMode::kAffine, AddressMode::kAffine}) {
    auto record = tagged_record(0, sequence++, mode);
    producer.log(record.header, record.payload);
  }
  EXPECT_EQ(drain(out).records, 6u);
  EXPECT_EQ(read_head_, 14u);
  auto wrapping = tagged_record(1, 1, AddressMode::kFull64);
  producer.log(wrapping.header, wrapping.payload);
  out.clear();
  DrainResult result = drain(out);
  EXPECT_FALSE(result.error);
  EXPECT_EQ(result.records, 1u);
  EXPECT_EQ(result.read_head, 14u + 9u);
  ASSERT_EQ(out.size(), 9u);
  EXPECT_EQ(std::memcmp(&out[1], wrapping.payload.data(), 8 * sizeof(QueueSlot)), 0);
  EXPECT_TRUE(ring_is_zero()) << "consumed slots must read as unwritten the next time round";
}

TEST_F(QueueDrainTest, FullQueueBlocksTheProducerUntilTheHostDrains) {
  make_arena(16);
  SimulatedProducer producer(*arena_, 0);
  auto big = tagged_record(0, 2, AddressMode::kFull64);  // 9 slots
  producer.log(big.header, big.payload);
  std::atomic<bool> second_logged{false};
  std::thread blocked([&] {
    producer.log(big.header, big.payload);  // 18 slots > 16: must wait for the read head
    second_logged = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(second_logged.load());
  EXPECT_EQ(std::atomic_ref(producer_line().write_head).load(), 18u);  // reserved, waiting for space

  std::vector<QueueSlot> out;
  EXPECT_EQ(drain(out).records, 1u);
  blocked.join();
  EXPECT_TRUE(second_logged.load());
  EXPECT_EQ(drain(out).records, 1u);
  EXPECT_EQ(read_head_, 18u);
  EXPECT_EQ(std::atomic_ref(producer_line().read_head_cache).load(), 9u);  // the waiter re-read the host's head
}

// Every other record carries a sync ticket, which must come out right before it.
TEST_F(QueueDrainTest, ConcurrentProducersDeliverEveryRecordOnceInPerProducerOrderTicketsFirst) {
  make_arena(32);  // small ring: constant back-pressure and wrap-around, also between ticket and record
  constexpr uint32_t kProducers = 3;
  constexpr uint32_t kRecordsEach = 1000;
  std::vector<std::thread> producers;
  for (uint32_t p = 0; p < kProducers; ++p) {
    producers.emplace_back([this, p] {
      SimulatedProducer producer(*arena_, 0);
      for (uint32_t s = 0; s < kRecordsEach; ++s) {
        auto record = tagged_record(p, s, mixed_mode(p, s));
        std::optional<uint64_t> ticket;
        if (s % 2 == 0) ticket = uint64_t{p} << 32 | s;
        producer.log(record.header, record.payload, ticket);
      }
    });
  }
  std::vector<uint32_t> next_sequence(kProducers, 0);
  std::optional<uint64_t> pending_ticket;
  std::vector<QueueSlot> out;
  uint64_t records = 0;
  while (records < kProducers * kRecordsEach * 3 / 2) {
    out.clear();
    DrainResult result = drain(out);
    ASSERT_FALSE(result.error) << *result.error;
    records += result.records;
    if (result.records == 0) std::this_thread::yield();
    RecordCursor cursor(out);
    while (auto record = cursor.next()) {
      const RecordHeader& header = record->header();
      if (header.op == static_cast<uint8_t>(RecordOp::kSyncTicket)) {
        ASSERT_FALSE(pending_ticket) << "two tickets in a row";
        pending_ticket = header.base;
        continue;
      }
      uint32_t p = header.site_id;
      ASSERT_LT(p, kProducers);
      const uint32_t sequence = next_sequence[p];
      if (sequence % 2 == 0) {
        ASSERT_EQ(pending_ticket, uint64_t{p} << 32 | sequence) << "producer " << p << " record " << sequence;
      } else {
        ASSERT_FALSE(pending_ticket);
      }
      pending_ticket.reset();
      expect_tagged(*record, p, next_sequence[p]++);
    }
    // A ticket is published with its record: a drain never ends between them.
    ASSERT_FALSE(pending_ticket);
  }
  for (auto& thread : producers) thread.join();
  for (uint32_t p = 0; p < kProducers; ++p) EXPECT_EQ(next_sequence[p], kRecordsEach);
}

RecordHeader header_of(RecordOp op, AddressMode mode) {
  RecordHeader header{};
  header.op = static_cast<uint8_t>(op);
  header.size_mode = pack_size_mode(2, mode);
  return header;
}

TEST(QueueDrain, UnwrittenSlotEndsThePassAndTakenSlotsAreZeroed) {
  std::vector<QueueSlot> ring(16);
  RecordHeader header = header_of(RecordOp::kLoad, AddressMode::kAffine);
  std::memcpy(&ring[3], &header, sizeof(header));
  std::memcpy(&ring[5], &header, sizeof(header));  // beyond the unwritten slot 4: not reached
  std::vector<QueueSlot> out;
  DrainResult result = drain_queue(ring, 3, out);
  EXPECT_FALSE(result.error);
  EXPECT_EQ(result.records, 1u);
  EXPECT_EQ(result.read_head, 4u);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(std::memcmp(&out[0], &header, sizeof(header)), 0);
  EXPECT_EQ(ring[3].bytes, QueueSlot{}.bytes);
  EXPECT_NE(ring[5].bytes, QueueSlot{}.bytes);
}

TEST(QueueDrain, RecordsOverrunningTheRingAreReportedNotReread) {
  // Garbage that looks published everywhere: a pass must stop within one ring, even with the read
  // head near the top of the counter.
  std::vector<QueueSlot> ring(16);
  RecordHeader header = header_of(RecordOp::kLoad, AddressMode::kFull64);
  for (QueueSlot& slot : ring) std::memcpy(&slot, &header, sizeof(header));
  std::vector<QueueSlot> out;
  const uint64_t top = ~uint64_t{0} - 4;
  DrainResult result = drain_queue(ring, top, out);  // one 9-slot record, then 7 slots left
  EXPECT_EQ(result.records, 1u);
  EXPECT_EQ(result.read_head, top + 9);
  EXPECT_EQ(out.size(), 9u);
  EXPECT_EQ(*result.error, "record at queue position " + std::to_string(top + 9) +
                               " needs 9 slots, more than the ring has left after read head " + std::to_string(top));
}

TEST(QueueDrain, GarbageHeaderStopsTheDrainAtItsPosition) {
  std::vector<QueueSlot> ring(16);
  RecordHeader header = header_of(RecordOp::kFence, AddressMode::kAffine);
  std::memcpy(&ring[0], &header, sizeof(header));
  ring[1].bytes.fill(std::byte{0xEE});
  std::vector<QueueSlot> out;
  DrainResult result = drain_queue(ring, 0, out);
  EXPECT_EQ(result.records, 1u);
  EXPECT_EQ(result.read_head, 1u);
  EXPECT_EQ(*result.error, "reserved size_mode bits set (header op 238, size_mode 0xee) at queue position 1");
}

TEST(QueueDrain, RingsThatAreNoPowerOfTwoAreRejected) {
  std::vector<QueueSlot> odd(12);
  std::vector<QueueSlot> out;
  EXPECT_EQ(*drain_queue(odd, 0, out).error, "queue capacity 12 is not a power of two >= 9");
}

TEST(QueueArena, ImageRoundTripsAndBadImagesAreNamed) {
  auto image = make_arena_image({3, 2, 64});
  EXPECT_EQ(image.size(), 128u + 3 * 128 + 3 * 64 * 32);
  std::string error;
  auto view = QueueArenaView::open(image, error);
  ASSERT_TRUE(view) << error;
  EXPECT_EQ(view->header().queues_per_sm, 2u);
  EXPECT_EQ(view->ring(2).size(), 64u);
  EXPECT_EQ(reinterpret_cast<const std::byte*>(view->ring(2).data()) - image.data(), 128 + 3 * 128 + 2 * 64 * 32);
  EXPECT_EQ(view->control(1).read_head, 0u);

  EXPECT_FALSE(QueueArenaView::open(std::span(image).first(image.size() - 1), error));
  EXPECT_EQ(error, "arena image of 6655 bytes, its header needs 6656");
  image[0] = std::byte{0};
  EXPECT_FALSE(QueueArenaView::open(image, error));
  EXPECT_EQ(error.rfind("not a queue arena", 0), 0u);
  EXPECT_EQ(*validate_arena_shape({1, 1, 8}), "queue capacity 8 is not a power of two >= 9");
  EXPECT_EQ(*validate_arena_shape({0, 1, 16}), "an arena needs at least one queue");
}

TEST(QueueArena, ProducerBlockCarriesTheShapeAndTheHostArenaAddress) {
  auto block = make_producer_block({3, 2, 64}, 0x7f0000001000);
  ASSERT_EQ(block.size(), 128u + 3 * 128 + kLaunchSlots * 128 + kGridTableEntries * (8 + sizeof(GridChild)));
  EXPECT_EQ(sync_buckets_offset(3, 0), block.size());  // the counters follow; each launch clears its own
  EXPECT_EQ(producer_block_bytes(3), block.size() + kLaunchSlots * kSyncBuckets * 8);
  QueueProducerHeader header;
  std::memcpy(&header, block.data(), sizeof(header));
  EXPECT_EQ(header.magic, kQueueArenaMagic);
  EXPECT_EQ(header.version, kQueueFormatVersion);
  EXPECT_EQ(header.queue_count, 3u);
  EXPECT_EQ(header.queues_per_sm, 2u);
  EXPECT_EQ(header.capacity, 64u);
  EXPECT_EQ(header.host_arena, 0x7f0000001000u);
  EXPECT_EQ(launch_slot_offset(3, 0), 128u + 3 * 128);
  EXPECT_EQ(grid_table_offset(3), launch_slot_offset(3, kLaunchSlots));
  for (size_t i = sizeof(header); i < block.size(); ++i) {
    ASSERT_EQ(block[i], std::byte{0}) << "producer lines, launch slots and the grid table start empty";
  }
}

TEST(QueueArena, RestoredProducerBlockStartsEachQueueAtItsPosition) {
  const uint64_t positions[] = {640, 0, 64};
  auto block = make_producer_block({3, 2, 64}, 0x7f0000001000, positions);
  for (uint32_t queue = 0; queue < 3; ++queue) {
    QueueProducerLine line;
    std::memcpy(&line, block.data() + producer_line_offset(queue), sizeof(line));
    EXPECT_EQ(line.write_head, positions[queue]);
    EXPECT_EQ(line.read_head_cache, positions[queue]) << "nothing left to wait for";
  }
}

TEST(QueueArena, StrayWritesOverTheConstantFieldsAreNamed) {
  const QueueArenaShape shape{3, 2, 64};
  auto block = make_producer_block(shape, 0x7f0000001000);
  QueueProducerHeader producer;
  std::memcpy(&producer, block.data(), sizeof(producer));
  EXPECT_EQ(producer_header_damage(producer, shape, 0x7f0000001000), std::nullopt);

  QueueProducerHeader overwritten = producer;
  overwritten.magic = 0;
  EXPECT_NE(producer_header_damage(overwritten, shape, 0x7f0000001000)->find("magic"), std::string::npos);
  overwritten = producer;
  overwritten.capacity = 128;
  EXPECT_NE(producer_header_damage(overwritten, shape, 0x7f0000001000)->find("another shape"), std::string::npos);
  overwritten = producer;
  overwritten.host_arena = 0x1234;
  EXPECT_NE(producer_header_damage(overwritten, shape, 0x7f0000001000)->find("points elsewhere"), std::string::npos);

  QueueArenaHeader arena = make_arena_header(shape);
  EXPECT_EQ(arena_header_damage(arena, shape), std::nullopt);
  arena.queue_count = 1;
  EXPECT_NE(arena_header_damage(arena, shape)->find("host memory"), std::string::npos);
}

TEST(LiveArena, RestoredHeaderIsWholeAgain) {
  const QueueArenaShape shape{2, 1, 64};
  std::vector<std::byte> image = make_arena_image(shape);
  LiveArena arena(image.data(), shape);
  QueueArenaHeader header;
  std::memcpy(&header, image.data(), sizeof(header));
  header.magic = 0xdeadbeef;  // an out-of-bounds store landed here
  std::memcpy(image.data(), &header, sizeof(header));
  ASSERT_TRUE(arena.header_damage().has_value());
  arena.restore_header();
  EXPECT_EQ(arena.header_damage(), std::nullopt);
}

TEST(GridTable, EntriesNeverLookEmptyOrDeletedAndKeepTheirSlot) {
  for (const uint64_t grid : {uint64_t{0}, uint64_t{1}, uint64_t{0xffffffffffffull}, ~uint64_t{0}}) {
    for (const uint32_t slot : {0u, kLaunchSlots - 1}) {
      const uint64_t entry = grid_table_entry(grid, slot);
      EXPECT_NE(entry, 0u);
      EXPECT_NE(entry, kGridDeleted);
      EXPECT_EQ(entry & 0xffu, slot);
      EXPECT_EQ(entry >> 8, grid_table_key(grid));
    }
    EXPECT_LT(grid_table_home(grid), kGridTableEntries);
  }
  // Consecutive grid ids (the driver counts launches) spread over the table.
  std::set<uint32_t> homes;
  for (uint64_t grid = 1000; grid < 1064; ++grid) homes.insert(grid_table_home(grid));
  EXPECT_GT(homes.size(), 48u);
}

}  // namespace
}  // namespace barracuda::runtime
