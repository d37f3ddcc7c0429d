// The drain threads against simulated GPU warps logging into a host arena: every record reaches the
// sink once, in per-producer order, on the thread that owns its queue, launch after launch.
#include "runtime/drain_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <vector>

#include "simulated_producer.h"
#include "tagged_records.h"

namespace barracuda::runtime {
namespace {

using testing::SimulatedProducer;

constexpr uint32_t kQueues = 5;
constexpr uint64_t kCapacity = 64;  // small rings: constant back-pressure and wrap-around

class DrainPoolTest : public ::testing::Test {
 protected:
  DrainPoolTest() : simulated_({kQueues, 1, kCapacity}), arena_(simulated_.host.data(), {kQueues, 1, kCapacity}) {}

  // Starts `producers` simulated warps, producer p logging `records_each` tagged records into queue
  // p % kQueues and then counting itself exited.
  void start_producers(uint32_t producers, uint32_t records_each) {
    for (uint32_t p = 0; p < producers; ++p) {
      producers_.emplace_back([this, p, records_each] {
        SimulatedProducer producer(simulated_, p % kQueues);
        for (uint32_t s = 0; s < records_each; ++s) {
          auto record = testing::tagged_record(p, s, testing::mixed_mode(p, s));
          producer.log(record.header, record.payload);
        }
        testing::count_thread_exit(simulated_);
      });
    }
  }
  void join_producers() {
    for (std::thread& thread : producers_) thread.join();
    producers_.clear();
  }
  std::function<bool()> all_exited(uint32_t producers) {
    return [this, producers] { return arena_.threads_exited() >= producers; };
  }

  testing::SimulatedArena simulated_;
  LiveArena arena_;
  std::vector<std::thread> producers_;
};

// Collects what each queue delivered; each queue is written by one drain thread only.
struct Delivered {
  explicit Delivered(uint32_t thread_count) : threads(thread_count), slots(kQueues) {}
  RecordSink sink() {
    return [this](uint32_t thread, uint32_t queue, std::span<const RecordHeader> records) {
      if (queue >= kQueues || thread != queue % threads) wrong_thread = true;
      auto* begin = reinterpret_cast<const QueueSlot*>(records.data());
      slots[queue % kQueues].insert(slots[queue % kQueues].end(), begin, begin + records.size());
    };
  }
  uint32_t threads;
  std::vector<std::vector<QueueSlot>> slots;
  std::atomic<bool> wrong_thread{false};
};

TEST_F(DrainPoolTest, EveryRecordReachesTheThreadOwningItsQueueOnceAndInOrder) {
  constexpr uint32_t kThreads = 3, kProducers = 12, kRecordsEach = 400;
  DrainPool pool(kThreads);
  ASSERT_EQ(pool.threads(), kThreads);
  for (int launch = 0; launch < 3; ++launch) {  // the threads outlive launches
    arena_.begin_launch();
    Delivered delivered(kThreads);
    start_producers(kProducers, kRecordsEach);
    DrainTotals totals = pool.drain_launch(arena_, delivered.sink(), all_exited(kProducers));
    join_producers();
    EXPECT_FALSE(totals.error) << *totals.error;
    EXPECT_EQ(totals.records, uint64_t{kProducers} * kRecordsEach);
    EXPECT_FALSE(delivered.wrong_thread);
    std::vector<uint32_t> next_sequence(kProducers, 0);
    uint64_t slots = 0;
    for (uint32_t q = 0; q < kQueues; ++q) {
      slots += delivered.slots[q].size();
      RecordCursor cursor(delivered.slots[q]);
      while (auto record = cursor.next()) {
        const uint32_t p = record->header().site_id;
        ASSERT_LT(p, kProducers);
        ASSERT_EQ(p % kQueues, q);
        testing::expect_tagged(*record, p, next_sequence[p]++);
      }
    }
    EXPECT_EQ(totals.slots, slots);
    for (uint32_t p = 0; p < kProducers; ++p) EXPECT_EQ(next_sequence[p], kRecordsEach) << "producer " << p;
  }
}

TEST_F(DrainPoolTest, RecordsPublishedJustBeforeTheLaunchEndsAreNotLost) {
  // No back-pressure and a sink that is slow on its first call: the launch ends while most records
  // still sit in the queues, so only the final pass can deliver them.
  DrainPool pool(2);
  arena_.begin_launch();
  Delivered delivered(2);
  std::atomic<bool> first{true};
  RecordSink slow_then_collect = [&, inner = delivered.sink()](uint32_t thread, uint32_t queue,
                                                               std::span<const RecordHeader> records) {
    if (first.exchange(false)) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    inner(thread, queue, records);
  };
  for (uint32_t q = 0; q < kQueues; ++q) {
    SimulatedProducer producer(simulated_, q);
    auto record = testing::tagged_record(q, 0, AddressMode::kFull64);
    producer.log(record.header, record.payload);
    testing::count_thread_exit(simulated_);
  }
  DrainTotals totals = pool.drain_launch(arena_, slow_then_collect, all_exited(kQueues));
  EXPECT_EQ(totals.records, kQueues);
  for (uint32_t q = 0; q < kQueues; ++q) EXPECT_EQ(delivered.slots[q].size(), record_slots(AddressMode::kFull64));
}

TEST_F(DrainPoolTest, AQueueFoundHalfFullIsReported) {
  // What makes the session grow its queues: one queue holding at least half its capacity at a drain.
  DrainPool pool(1);
  Delivered delivered(1);
  const auto fill = [this](uint32_t queue, uint32_t records) {
    SimulatedProducer producer(simulated_, queue);
    for (uint32_t s = 0; s < records; ++s) {
      auto record = testing::tagged_record(queue, s, AddressMode::kFull64);
      producer.log(record.header, record.payload);
    }
    testing::count_thread_exit(simulated_);
  };
  const uint32_t per_record = record_slots(AddressMode::kFull64);
  arena_.begin_launch();
  fill(0, 1);  // a record in each of two queues: far from full
  fill(1, 1);
  EXPECT_FALSE(pool.drain_launch(arena_, delivered.sink(), all_exited(2)).queue_ran_full);
  arena_.begin_launch();
  fill(2, static_cast<uint32_t>(kCapacity / 2 / per_record + 1));
  const DrainTotals totals = pool.drain_launch(arena_, delivered.sink(), all_exited(1));
  EXPECT_TRUE(totals.queue_ran_full);
  EXPECT_GE(totals.slots * 2, kCapacity);
}

TEST_F(DrainPoolTest, MalformedQueueIsReportedAndFreedWhileOtherQueuesDrainOn) {
  DrainPool pool(2);
  arena_.begin_launch();
  // Queue 1 gets a published slot that is no record header.
  auto* control = reinterpret_cast<QueueControl*>(simulated_.host.data() + arena_control_offset(1));
  auto* line = reinterpret_cast<QueueProducerLine*>(simulated_.producers.data() + producer_line_offset(1));
  auto* ring = reinterpret_cast<QueueSlot*>(simulated_.host.data() + arena_ring_offset(kQueues, kCapacity, 1));
  std::memset(&ring[0], 0xEE, sizeof(QueueSlot));
  line->write_head = 1;
  Delivered delivered(2);
  // One producer per queue: writers sharing a discarded queue would overwrite each other's slots (the
  // host no longer frames them), which on a GPU is harmless but is a data race between test threads.
  start_producers(kQueues, 100);
  DrainTotals totals = pool.drain_launch(arena_, delivered.sink(), all_exited(kQueues));
  join_producers();
  ASSERT_TRUE(totals.error);
  EXPECT_NE(totals.error->find("event queue 1"), std::string::npos) << *totals.error;
  // Queue 1 is discarded: its producers got their slots back without being read (they finished:
  // join_producers returned), and nothing from it reached the sink. The other queues lost nothing.
  EXPECT_GE(std::atomic_ref(control->read_head).load(), std::atomic_ref(line->write_head).load());
  EXPECT_TRUE(delivered.slots[1].empty());
  for (uint32_t q = 0; q < kQueues; ++q) {
    if (q == 1) continue;
    uint32_t records = 0;
    RecordCursor cursor(delivered.slots[q]);
    while (cursor.next()) ++records;
    EXPECT_EQ(records, 100u) << "queue " << q;
  }
}

TEST_F(DrainPoolTest, SinkAndCompletionErrorsAreReportedAndThePoolStaysUsable) {
  DrainPool pool(2);
  arena_.begin_launch();
  start_producers(4, 30);
  RecordSink throwing = [](uint32_t, uint32_t, std::span<const RecordHeader>) {
    throw std::runtime_error("engine out of memory");
  };
  DrainTotals totals = pool.drain_launch(arena_, throwing, all_exited(4));
  join_producers();
  ASSERT_TRUE(totals.error);
  EXPECT_EQ(*totals.error, "engine out of memory");
  EXPECT_EQ(totals.records, 4 * 30u);  // the queues were still emptied

  Delivered delivered(2);
  EXPECT_THROW(pool.drain_launch(arena_, delivered.sink(), [] () -> bool { throw std::runtime_error("stream lost"); }),
               std::runtime_error);
  arena_.begin_launch();
  start_producers(3, 10);
  totals = pool.drain_launch(arena_, delivered.sink(), all_exited(3));
  join_producers();
  EXPECT_FALSE(totals.error);
  EXPECT_EQ(totals.records, 30u);
}

}  // namespace
}  // namespace barracuda::runtime
