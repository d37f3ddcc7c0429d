// How large the event queues are made and grown (runtime/queue_sizing.h).
#include "runtime/queue_sizing.h"

#include <gtest/gtest.h>

#include <bit>

#include "barracuda/queue.h"

namespace barracuda::runtime {
namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;
constexpr uint64_t kGiB = uint64_t{1} << 30;

TEST(QueueSizing, ARequestedSizeIsUsedFromTheStart) {
  const QueueSizing sizing = queue_sizing(8 * kMiB, 132, 0);
  EXPECT_EQ(sizing.initial, 8 * kMiB / kSlotBytes);
  EXPECT_EQ(sizing.limit, sizing.initial);
}

TEST(QueueSizing, ARequestIsCutToTheLimitOfAllQueuesTogether) {
  const QueueSizing sizing = queue_sizing(64 * kGiB, 132, 0);
  EXPECT_LE(sizing.limit * kSlotBytes * 132, kMaxQueueArenaBytes);
}

TEST(QueueSizing, AutomaticQueuesStartSmallAndMayGrowToAShareOfFreeMemory) {
  // 128 GiB free: 1/16 of it is 8 GiB, above the 2 GiB all queues may take: 15.5 MiB a queue.
  const QueueSizing sizing = queue_sizing(0, 132, 128 * kGiB);
  EXPECT_EQ(sizing.limit, std::bit_floor(kMaxQueueArenaBytes / 132 / kSlotBytes));
  EXPECT_LE(sizing.initial * kSlotBytes * 132, kInitialQueueArenaBytes);
  EXPECT_LT(sizing.initial, sizing.limit);
}

TEST(QueueSizing, AutomaticQueuesKeepAMinimumWithLittleFreeMemory) {
  const QueueSizing sizing = queue_sizing(0, 132, 0);
  EXPECT_EQ(sizing.limit, kMiB / kSlotBytes);
  EXPECT_LE(sizing.initial, sizing.limit);
}

TEST(QueueSizing, EveryCapacityIsAPowerOfTwoWithRoomForTwoLargestRecords) {
  for (const uint64_t requested : {uint64_t{0}, uint64_t{1}, 3 * kMiB + 5, 64 * kGiB}) {
    for (const uint64_t free : {uint64_t{0}, 100 * kMiB, 2 * kGiB, 1024 * kGiB}) {
      for (const uint32_t queues : {1u, 7u, 132u, 264u}) {
        const QueueSizing sizing = queue_sizing(requested, queues, free);
        for (const uint64_t capacity : {sizing.initial, sizing.limit}) {
          EXPECT_TRUE(std::has_single_bit(capacity)) << capacity;
          EXPECT_GE(capacity, uint64_t{kMaxRecordSlots} * 2);
        }
        EXPECT_LE(sizing.initial, sizing.limit);
      }
    }
  }
}

// A few hundred bytes asked for: the smallest queues the arena accepts (before, a capacity of 18 slots,
// which it refused: no queues, nothing checked).
TEST(QueueSizing, ATinyRequestGetsTheSmallestValidQueues) {
  const QueueSizing sizing = queue_sizing(256, 132, 0);
  EXPECT_EQ(sizing.initial, std::bit_ceil(uint64_t{kMaxRecordSlots} * 2));
}

TEST(QueueSizing, GrowthIsFourfoldUpToTheLimit) {
  EXPECT_EQ(grown_capacity(1024, 1 << 20), 4096u);
  EXPECT_EQ(grown_capacity(1 << 19, 1 << 20), uint64_t{1} << 20);
}

}  // namespace
}  // namespace barracuda::runtime
