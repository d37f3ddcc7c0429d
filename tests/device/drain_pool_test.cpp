// The drain threads against simulated GPU warps logging into a host arena: every record of the current
// launch reaches the sink once, in per-producer order, on the thread that owns its queue; records of a
// later launch in flight are held back, never block the producers, and come first once it is current.
#include "runtime/drain_pool.h"

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <cstring>
#include <map>
#include <mutex>
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
  // Launch id -> records delivered for it, over every queue.
  std::map<uint16_t, uint64_t> records_per_launch() const {
    std::map<uint16_t, uint64_t> counts;
    for (const auto& queue : slots) {
      RecordCursor cursor(queue);
      while (auto record = cursor.next()) ++counts[record->header().launch_id];
    }
    return counts;
  }
  uint32_t threads;
  std::vector<std::vector<QueueSlot>> slots;
  std::atomic<bool> wrong_thread{false};
};

class DrainPoolTest : public ::testing::Test {
 protected:
  DrainPoolTest() : simulated_({kQueues, 1, kCapacity}), arena_(simulated_.host.data(), {kQueues, 1, kCapacity}) {}

  // Starts `producers` simulated warps, producer p logging `records_each` tagged records of launch
  // `launch` into queue p % kQueues.
  void start_producers(uint32_t producers, uint32_t records_each, uint16_t launch = 0) {
    for (uint32_t p = 0; p < producers; ++p) {
      producers_.emplace_back([this, p, records_each, launch] {
        SimulatedProducer producer(simulated_, p % kQueues);
        for (uint32_t s = 0; s < records_each; ++s) {
          auto record = testing::tagged_record(p, s, testing::mixed_mode(p, s));
          record.header.launch_id = launch;
          producer.log(record.header, record.payload);
        }
      });
    }
  }
  void join_producers() {
    for (std::thread& thread : producers_) thread.join();
    producers_.clear();
  }
  // Checks that queue by queue, `delivered` holds producer p's records of `launch` in order, all of them.
  static void expect_all_in_order(const Delivered& delivered, uint32_t producers, uint32_t records_each,
                                  uint16_t launch) {
    std::vector<uint32_t> next_sequence(producers, 0);
    for (uint32_t q = 0; q < kQueues; ++q) {
      RecordCursor cursor(delivered.slots[q]);
      while (auto record = cursor.next()) {
        const uint32_t p = record->header().site_id;
        ASSERT_LT(p, producers);
        ASSERT_EQ(p % kQueues, q);
        testing::expect_tagged(*record, p, next_sequence[p]++, launch);
      }
    }
    for (uint32_t p = 0; p < producers; ++p) EXPECT_EQ(next_sequence[p], records_each) << "producer " << p;
  }

  testing::SimulatedArena simulated_;
  LiveArena arena_;
  std::vector<std::thread> producers_;
};

TEST_F(DrainPoolTest, EveryRecordReachesTheThreadOwningItsQueueOnceAndInOrder) {
  constexpr uint32_t kThreads = 3, kProducers = 12, kRecordsEach = 400;
  for (uint16_t launch = 0; launch < 3; ++launch) {  // the threads outlive launches
    Delivered delivered(kThreads);
    DrainPool pool(arena_, kThreads, delivered.sink());
    ASSERT_EQ(pool.threads(), kThreads);
    pool.open(launch);
    pool.make_current(launch);
    start_producers(kProducers, kRecordsEach, launch);
    join_producers();  // back-pressure: they finish only because the pool drains
    const DrainTotals totals = pool.close_current();
    EXPECT_FALSE(totals.error) << *totals.error;
    EXPECT_EQ(totals.records, uint64_t{kProducers} * kRecordsEach);
    EXPECT_FALSE(delivered.wrong_thread);
    uint64_t slots = 0;
    for (const auto& queue : delivered.slots) slots += queue.size();
    EXPECT_EQ(totals.slots, slots);
    expect_all_in_order(delivered, kProducers, kRecordsEach, launch);
  }
}

TEST_F(DrainPoolTest, ALaterLaunchIsHeldBackWithoutBlockingItsProducersAndComesFirstOnceCurrent) {
  // Launch 1 is current and logs little; launch 2 logs many times the rings' capacity at the same time
  // into the same queues. Its producers must finish while launch 1 is still current.
  constexpr uint32_t kThreads = 2, kProducers = 10, kRecordsEach = 300;
  Delivered delivered(kThreads);
  DrainPool pool(arena_, kThreads, delivered.sink());
  pool.open(1);
  pool.open(2);
  pool.make_current(1);
  start_producers(kProducers, kRecordsEach, 2);
  join_producers();
  EXPECT_TRUE(delivered.records_per_launch().empty()) << "launch 2 is not current yet";
  EXPECT_GT(pool.held_back_slots(), 0u);
  start_producers(kProducers, 3, 1);
  join_producers();
  DrainTotals totals = pool.close_current();
  EXPECT_FALSE(totals.error) << *totals.error;
  EXPECT_EQ(delivered.records_per_launch(), (std::map<uint16_t, uint64_t>{{1, kProducers * 3}}));

  for (auto& queue : delivered.slots) queue.clear();
  pool.make_current(2);
  totals = pool.close_current();
  EXPECT_FALSE(totals.error) << *totals.error;
  EXPECT_FALSE(delivered.wrong_thread);
  expect_all_in_order(delivered, kProducers, kRecordsEach, 2);
  EXPECT_EQ(pool.held_back_slots(), 0u);
}

// Two GPUs: each context's queues have a pool of their own and both feed the same engine workers. While
// GPU 0's launch is current, GPU 1's pool only holds its launch's records back (its producers never
// block); they reach the shared sink once GPU 1's launch is made current after GPU 0's was closed.
TEST_F(DrainPoolTest, PoolsOfTwoGpusFeedOneSinkOnlyForTheCurrentLaunch) {
  constexpr uint32_t kThreads = 2, kProducers = 10, kRecordsEach = 300;
  testing::SimulatedArena second_gpu({kQueues, 1, kCapacity});
  LiveArena second_arena(second_gpu.host.data(), {kQueues, 1, kCapacity});
  Delivered delivered(kThreads);
  std::atomic<bool> second_current{false};
  std::atomic<bool> second_too_early{false};
  RecordSink from_second = [&, inner = delivered.sink()](uint32_t thread, uint32_t queue,
                                                         std::span<const RecordHeader> records) {
    if (!second_current.load()) second_too_early = true;
    inner(thread, queue, records);
  };
  DrainPool first(arena_, kThreads, delivered.sink());
  DrainPool second(second_arena, kThreads, from_second);
  first.open(1);
  second.open(2);
  first.make_current(1);
  std::vector<std::thread> second_producers;
  for (uint32_t p = 0; p < kProducers; ++p) {
    second_producers.emplace_back([&, p] {
      SimulatedProducer producer(second_gpu, p % kQueues);
      for (uint32_t s = 0; s < kRecordsEach; ++s) {
        auto record = testing::tagged_record(p, s, testing::mixed_mode(p, s));
        record.header.launch_id = 2;
        producer.log(record.header, record.payload);
      }
    });
  }
  for (std::thread& thread : second_producers) thread.join();
  EXPECT_GT(second.held_back_slots(), 0u);
  start_producers(kProducers, 3, 1);
  join_producers();
  EXPECT_FALSE(first.close_current().error);
  EXPECT_EQ(delivered.records_per_launch(), (std::map<uint16_t, uint64_t>{{1, kProducers * 3}}));
  EXPECT_FALSE(second_too_early);

  for (auto& queue : delivered.slots) queue.clear();
  second_current = true;
  second.make_current(2);
  const DrainTotals totals = second.close_current();
  EXPECT_FALSE(totals.error) << *totals.error;
  EXPECT_FALSE(delivered.wrong_thread);
  expect_all_in_order(delivered, kProducers, kRecordsEach, 2);
  EXPECT_EQ(second.held_back_slots(), 0u);
}

TEST_F(DrainPoolTest, RecordsPublishedJustBeforeTheLaunchEndsAreNotLost) {
  // No back-pressure and a sink that is slow on its first call: the launch ends while most records
  // still sit in the queues, so only the closing pass can deliver them.
  Delivered delivered(2);
  std::atomic<bool> first{true};
  RecordSink slow_then_collect = [&, inner = delivered.sink()](uint32_t thread, uint32_t queue,
                                                               std::span<const RecordHeader> records) {
    if (first.exchange(false)) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    inner(thread, queue, records);
  };
  DrainPool pool(arena_, 2, slow_then_collect);
  pool.open(0);
  pool.make_current(0);
  for (uint32_t q = 0; q < kQueues; ++q) {
    SimulatedProducer producer(simulated_, q);
    auto record = testing::tagged_record(q, 0, AddressMode::kFull64);
    producer.log(record.header, record.payload);
  }
  const DrainTotals totals = pool.close_current();
  EXPECT_EQ(totals.records, kQueues);
  for (uint32_t q = 0; q < kQueues; ++q) EXPECT_EQ(delivered.slots[q].size(), record_slots(AddressMode::kFull64));
}

TEST_F(DrainPoolTest, AQueueFoundHalfFullIsReported) {
  // What makes the session grow its queues: one queue holding at least half its capacity at a drain.
  // One thread, which the test keeps busy in the sink while the producer fills the queue.
  std::atomic<bool> hold{false};
  Delivered delivered(1);
  RecordSink held = [&, inner = delivered.sink()](uint32_t thread, uint32_t queue, std::span<const RecordHeader> records) {
    while (hold.load()) std::this_thread::yield();
    inner(thread, queue, records);
  };
  DrainPool pool(arena_, 1, held);
  const auto fill = [this](uint32_t queue, uint32_t records) {
    SimulatedProducer producer(simulated_, queue);
    for (uint32_t s = 0; s < records; ++s) {
      auto record = testing::tagged_record(queue, s, AddressMode::kFull64);
      producer.log(record.header, record.payload);
    }
  };
  pool.open(0);
  pool.make_current(0);
  fill(0, 1);  // a record in each of two queues: far from full
  fill(1, 1);
  EXPECT_FALSE(pool.close_current().queue_ran_full);
  const uint32_t per_record = record_slots(AddressMode::kFull64);
  pool.open(1);
  pool.make_current(1);
  hold = true;
  fill(3, 1);  // the thread takes it and waits in the sink
  while (std::atomic_ref(reinterpret_cast<QueueControl*>(simulated_.host.data() + arena_control_offset(3))->read_head)
             .load() == 0) {
    std::this_thread::yield();
  }
  fill(2, static_cast<uint32_t>(kCapacity / 2 / per_record + 1));
  hold = false;
  const DrainTotals totals = pool.close_current();
  EXPECT_TRUE(totals.queue_ran_full);
  EXPECT_GE(totals.slots * 2, kCapacity);
}

TEST_F(DrainPoolTest, MalformedQueueIsReportedAndFreedWhileOtherQueuesDrainOn) {
  Delivered delivered(2);
  DrainPool pool(arena_, 2, delivered.sink());
  pool.open(0);
  pool.make_current(0);
  // Queue 1 gets a published slot that is no record header.
  auto* control = reinterpret_cast<QueueControl*>(simulated_.host.data() + arena_control_offset(1));
  auto* line = reinterpret_cast<QueueProducerLine*>(simulated_.producers.data() + producer_line_offset(1));
  auto* ring = reinterpret_cast<QueueSlot*>(simulated_.host.data() + arena_ring_offset(kQueues, kCapacity, 1));
  std::memset(&ring[0], 0xEE, sizeof(QueueSlot));
  std::atomic_ref(line->write_head).store(1);
  // One producer per queue: writers sharing a discarded queue would overwrite each other's slots (the
  // host no longer frames them), which on a GPU is harmless but is a data race between test threads.
  start_producers(kQueues, 100);
  join_producers();
  const DrainTotals totals = pool.close_current();
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

TEST_F(DrainPoolTest, SinkErrorsAndRecordsOfNoLaunchInFlightAreReportedAndThePoolStaysUsable) {
  std::atomic<bool> throwing{true};
  Delivered delivered(2);
  RecordSink sink = [&, inner = delivered.sink()](uint32_t thread, uint32_t queue, std::span<const RecordHeader> records) {
    if (throwing) throw std::runtime_error("engine out of memory");
    inner(thread, queue, records);
  };
  DrainPool pool(arena_, 2, sink);
  pool.open(0);
  pool.make_current(0);
  start_producers(4, 30);
  join_producers();
  DrainTotals totals = pool.close_current();
  ASSERT_TRUE(totals.error);
  EXPECT_EQ(*totals.error, "engine out of memory");
  EXPECT_EQ(totals.records, 4 * 30u);  // the queues were still emptied

  throwing = false;
  pool.open(2);
  pool.make_current(2);
  start_producers(3, 10, 9);  // launch 9 was never opened
  join_producers();
  totals = pool.close_current();
  ASSERT_TRUE(totals.error);
  EXPECT_NE(totals.error->find("launch 9, which is not in flight"), std::string::npos) << *totals.error;
  EXPECT_TRUE(delivered.records_per_launch().empty());

  pool.open(3);
  pool.make_current(3);
  start_producers(3, 10, 3);
  join_producers();
  totals = pool.close_current();
  EXPECT_FALSE(totals.error);
  EXPECT_EQ(totals.records, 30u);
  EXPECT_EQ(delivered.records_per_launch(), (std::map<uint16_t, uint64_t>{{3, 30}}));
}

TEST_F(DrainPoolTest, IdleThreadsGoOnWithHeldBackWorkOnlyWhileALaunchIsCurrent) {
  // The engine holds back records waiting for another worker's turn: a thread whose queues ran dry
  // must keep offering its worker the chance to take that turn, on its own thread, and stop when
  // the launch closes.
  constexpr uint32_t kThreads = 2;
  std::mutex mutex;
  std::map<uint32_t, uint32_t> calls_by_thread;
  std::atomic<bool> launch_current{false};
  std::atomic<bool> called_outside_launch{false};
  std::array<std::thread::id, kThreads> thread_of_index{};
  std::atomic<bool> wrong_thread{false};
  Delivered delivered(kThreads);
  const RecordSink sink = [&](uint32_t thread, uint32_t queue, std::span<const RecordHeader> records) {
    thread_of_index[thread] = std::this_thread::get_id();
    delivered.sink()(thread, queue, records);
  };
  const IdleSink idle = [&](uint32_t thread) {
    if (!launch_current.load()) called_outside_launch = true;
    if (thread_of_index[thread] != std::thread::id{} && thread_of_index[thread] != std::this_thread::get_id()) {
      wrong_thread = true;
    }
    std::lock_guard lock(mutex);
    return ++calls_by_thread[thread] < 50 ? IdleWork::kDone : IdleWork::kNone;  // work for a while, then nothing left
  };
  DrainPool pool(arena_, kThreads, sink, idle);
  pool.open(1);
  launch_current = true;
  pool.make_current(1);
  start_producers(kThreads * 2, 20, 1);  // every thread's share of queues gets records
  join_producers();
  for (int wait = 0; wait < 2000; ++wait) {
    {
      std::lock_guard lock(mutex);
      if (calls_by_thread.size() == kThreads && calls_by_thread[0] > 50 && calls_by_thread[1] > 50) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  const DrainTotals totals = pool.close_current();
  launch_current = false;
  EXPECT_FALSE(totals.error);
  {
    std::lock_guard lock(mutex);
    ASSERT_EQ(calls_by_thread.size(), kThreads);
    EXPECT_GT(calls_by_thread[0], 50u) << "asked again after it said it had nothing left";
    EXPECT_GT(calls_by_thread[1], 50u);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(called_outside_launch) << "asked while no launch was current";
  EXPECT_FALSE(wrong_thread) << "asked on another thread than the one sinking its records";
}

TEST_F(DrainPoolTest, EveryThreadSettlesItsHeldBackWorkBeforeTheLaunchCloses) {
  // Once the kernel has ended, what the engine workers hold back (a lock-heavy launch: most of its
  // records) is worked off by every drain thread at once, on its own thread, before close_current()
  // returns, instead of by the one thread that ends the launch afterwards.
  constexpr uint32_t kThreads = 3;
  constexpr uint32_t kUnitsEach = 2000;
  std::atomic<bool> ended{false};
  std::array<std::atomic<uint32_t>, kThreads> done{};
  std::array<std::thread::id, kThreads> worked_on{};
  std::atomic<bool> two_threads_on_one_index{false};
  const IdleSink idle = [&](uint32_t thread) {
    if (!ended.load()) return IdleWork::kWaiting;  // held back until the kernel's end
    if (done[thread].load() == kUnitsEach) return IdleWork::kNone;
    if (worked_on[thread] == std::thread::id{}) worked_on[thread] = std::this_thread::get_id();
    if (worked_on[thread] != std::this_thread::get_id()) two_threads_on_one_index = true;
    done[thread].fetch_add(1);
    return IdleWork::kDone;
  };
  Delivered delivered(kThreads);
  DrainPool pool(arena_, kThreads, delivered.sink(), idle);
  pool.open(1);
  pool.make_current(1);
  ended = true;
  const DrainTotals totals = pool.close_current();
  EXPECT_FALSE(totals.error);
  for (uint32_t thread = 0; thread < kThreads; ++thread) EXPECT_EQ(done[thread].load(), kUnitsEach) << thread;
  EXPECT_FALSE(two_threads_on_one_index);
  EXPECT_NE(worked_on[0], worked_on[1]);
}

}  // namespace
}  // namespace barracuda::runtime
