#include "runtime/queue_drain.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

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
  void make_arena(uint64_t capacity) { arena_ = make_arena_image({1, 1, capacity}); }
  std::span<const QueueSlot> ring() {
    std::string error;
    auto view = QueueArenaView::open(arena_, error);
    EXPECT_TRUE(view) << error;
    return view->ring(0);
  }
  DrainResult drain(std::vector<QueueSlot>& out) {
    DrainResult result = drain_queue(ring(), {read_head_, testing::load_commit_index(arena_, 0)}, out);
    read_head_ = result.read_head;
    testing::store_read_head(arena_, 0, read_head_);
    return result;
  }
  std::vector<std::byte> arena_;
  uint64_t read_head_ = 0;
};

TEST_F(QueueDrainTest, RecordWrappingAroundTheRingEndComesOutContiguous) {
  make_arena(16);
  SimulatedProducer producer(arena_, 0);
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
}

TEST_F(QueueDrainTest, FullQueueBlocksTheProducerUntilTheHostDrains) {
  make_arena(16);
  SimulatedProducer producer(arena_, 0);
  auto big = tagged_record(0, 2, AddressMode::kFull64);  // 9 slots
  producer.log(big.header, big.payload);
  std::atomic<bool> second_logged{false};
  std::thread blocked([&] {
    producer.log(big.header, big.payload);  // 18 slots > 16: must wait for the read head
    second_logged = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(second_logged.load());
  EXPECT_EQ(testing::load_commit_index(arena_, 0), 9u);

  std::vector<QueueSlot> out;
  EXPECT_EQ(drain(out).records, 1u);
  blocked.join();
  EXPECT_TRUE(second_logged.load());
  EXPECT_EQ(drain(out).records, 1u);
  EXPECT_EQ(read_head_, 18u);
}

TEST_F(QueueDrainTest, ConcurrentProducersDeliverEveryRecordOnceInPerProducerOrder) {
  make_arena(64);  // small ring: constant back-pressure and wrap-around
  constexpr uint32_t kProducers = 3;
  constexpr uint32_t kRecordsEach = 1000;
  std::vector<std::thread> producers;
  for (uint32_t p = 0; p < kProducers; ++p) {
    producers.emplace_back([this, p] {
      SimulatedProducer producer(arena_, 0);
      for (uint32_t s = 0; s < kRecordsEach; ++s) {
        auto record = tagged_record(p, s, mixed_mode(p, s));
        producer.log(record.header, record.payload);
      }
    });
  }
  std::vector<uint32_t> next_sequence(kProducers, 0);
  uint64_t total = 0;
  std::vector<QueueSlot> out;
  while (total < kProducers * kRecordsEach) {
    out.clear();
    DrainResult result = drain(out);
    ASSERT_FALSE(result.error) << *result.error;
    total += result.records;
    if (result.records == 0) std::this_thread::yield();
    RecordCursor cursor(out);
    while (auto record = cursor.next()) {
      uint32_t p = record->header().site_id;
      ASSERT_LT(p, kProducers);
      expect_tagged(*record, p, next_sequence[p]++);
    }
  }
  for (auto& thread : producers) thread.join();
  for (uint32_t p = 0; p < kProducers; ++p) EXPECT_EQ(next_sequence[p], kRecordsEach);
}

TEST(QueueDrain, CommitIndexInsideARecordIsReportedNotRead) {
  std::vector<QueueSlot> ring(16);
  RecordHeader header{};
  header.op = static_cast<uint8_t>(RecordOp::kLoad);
  header.size_mode = pack_size_mode(2, AddressMode::kDelta32);
  std::memcpy(&ring[3], &header, sizeof(header));
  std::vector<QueueSlot> out;
  DrainResult result = drain_queue(ring, {3, 6}, out);
  EXPECT_EQ(result.records, 0u);
  EXPECT_EQ(result.read_head, 3u);
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(*result.error, "record at queue position 3 needs 5 slots but the commit index is 6");
}

TEST(QueueDrain, PositionsNearTheTopOfTheCounterDoNotWrapIntoEndlessReading) {
  std::vector<QueueSlot> ring(16);
  RecordHeader header{};
  header.op = static_cast<uint8_t>(RecordOp::kLoad);
  header.size_mode = pack_size_mode(2, AddressMode::kFull64);
  for (QueueSlot& slot : ring) std::memcpy(&slot, &header, sizeof(header));
  std::vector<QueueSlot> out;
  const uint64_t top = ~uint64_t{0};
  DrainResult result = drain_queue(ring, {top - 4, top}, out);  // a 9-slot record, 4 committed slots
  EXPECT_EQ(result.records, 0u);
  EXPECT_EQ(result.read_head, top - 4);
  EXPECT_TRUE(result.error);
}

TEST(QueueDrain, GarbageHeaderStopsTheDrainAtItsPosition) {
  std::vector<QueueSlot> ring(16);
  RecordHeader header{};
  header.op = static_cast<uint8_t>(RecordOp::kFence);
  std::memcpy(&ring[0], &header, sizeof(header));
  std::vector<QueueSlot> out;
  DrainResult result = drain_queue(ring, {0, 2}, out);  // slot 1 is all zeros: kInvalid
  EXPECT_EQ(result.records, 1u);
  EXPECT_EQ(result.read_head, 1u);
  EXPECT_EQ(*result.error, "unknown record op 0 at queue position 1");
}

TEST(QueueDrain, InconsistentSnapshotsAreRejected) {
  std::vector<QueueSlot> ring(16);
  std::vector<QueueSlot> out;
  EXPECT_EQ(*drain_queue(ring, {5, 4}, out).error, "inconsistent queue snapshot: read head 5, commit index 4, capacity 16");
  EXPECT_TRUE(drain_queue(ring, {0, 17}, out).error);
  std::vector<QueueSlot> odd(12);
  EXPECT_EQ(*drain_queue(odd, {0, 0}, out).error, "queue capacity 12 is not a power of two >= 9");
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
  EXPECT_EQ(view->control(1).write_head, 0u);

  EXPECT_FALSE(QueueArenaView::open(std::span(image).first(image.size() - 1), error));
  EXPECT_EQ(error, "arena image of 6655 bytes, its header needs 6656");
  image[0] = std::byte{0};
  EXPECT_FALSE(QueueArenaView::open(image, error));
  EXPECT_EQ(error.rfind("not a queue arena", 0), 0u);
  EXPECT_EQ(*validate_arena_shape({1, 1, 8}), "queue capacity 8 is not a power of two >= 9");
  EXPECT_EQ(*validate_arena_shape({0, 1, 16}), "an arena needs at least one queue");
}

}  // namespace
}  // namespace barracuda::runtime
