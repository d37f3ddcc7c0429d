#include "engine/range_clock.h"

#include <gtest/gtest.h>

#include <random>

namespace barracuda::engine {
namespace {

Clock c(uint32_t v) { return static_cast<Clock>(v); }
ThreadId t(uint32_t v) { return static_cast<ThreadId>(v); }

TEST(RangeClock, OverlapsKeepTheLargerClockAndMergeEqualNeighbours) {
  RangeClock clock({{0, 64, c(3)}, {10, 20, c(5)}, {64, 96, c(3)}, {200, 201, c(0)}});
  EXPECT_EQ(clock.at(t(0)), c(3));
  EXPECT_EQ(clock.at(t(15)), c(5));
  EXPECT_EQ(clock.at(t(20)), c(3));
  EXPECT_EQ(clock.at(t(95)), c(3));
  EXPECT_EQ(clock.at(t(96)), c(0));
  EXPECT_EQ(clock.at(t(200)), c(0));
  ASSERT_EQ(clock.ranges().size(), 3u);  // [0,10) 3, [10,20) 5, [20,96) 3
  EXPECT_EQ(clock.ranges()[2].end, 96u);
}

TEST(RangeClock, JoinReturnsAnInputThatAlreadyCoversTheOther) {
  auto big = make_clock(ClockRanges{{0, 100, c(9)}});
  auto small = make_clock(ClockRanges{{5, 6, c(2)}});
  EXPECT_EQ(join(big, small), big);
  EXPECT_EQ(join(small, big), big);
  EXPECT_EQ(join(nullptr, small), small);
  EXPECT_FALSE(small->covers(*big));
}

// A lock handed from thread to thread: each holder's knowledge is a merge with the lock's clock,
// and the release joins them back. The merge remembers what it came from, a few merges deep.
TEST(RangeClock, MergesRememberWhatTheyDescendFrom) {
  const RangeClock lock({{0, 1, c(4)}, {64, 65, c(2)}});
  const RangeClock holder({{128, 129, c(7)}});
  const RangeClock knowledge = RangeClock::merged(holder, lock);
  EXPECT_TRUE(knowledge.descends_from(lock));
  EXPECT_TRUE(knowledge.descends_from(holder));
  EXPECT_TRUE(knowledge.descends_from(knowledge));
  EXPECT_FALSE(lock.descends_from(knowledge));
  // Equal contents are not enough: only the merge history counts.
  const RangeClock same_as_lock({{0, 1, c(4)}, {64, 65, c(2)}});
  EXPECT_FALSE(knowledge.descends_from(same_as_lock));
  // Two merges on (the holder's own clock added at its release), the lock is still remembered.
  const RangeClock released = RangeClock::merged(RangeClock({{128, 129, c(8)}}), knowledge);
  EXPECT_TRUE(released.descends_from(lock));
  auto lock_clock = make_clock(lock);
  auto released_clock = make_clock(released);
  EXPECT_EQ(join(lock_clock, released_clock), released_clock);
  EXPECT_EQ(join(released_clock, lock_clock), released_clock);
  EXPECT_EQ(released_clock->at(t(64)), c(2));
}

// Against a dense array on random inputs: at(), covers() and merged() agree pointwise.
TEST(RangeClock, MatchesDenseVectorsOnRandomInputs) {
  std::mt19937 rng(42);
  for (int round = 0; round < 2000; ++round) {
    auto random_clock = [&](std::vector<uint32_t>& dense) {
      ClockRanges ranges;
      for (int k = rng() % 6; k > 0; --k) {
        const uint32_t lo = rng() % 64, hi = lo + 1 + rng() % 16, v = rng() % 4;
        ranges.push_back({lo, hi, c(v)});
        for (uint32_t i = lo; i < hi; ++i) dense[i] = std::max(dense[i], v);
      }
      return RangeClock(ranges);
    };
    std::vector<uint32_t> da(96, 0), db(96, 0);
    const RangeClock a = random_clock(da), b = random_clock(db);
    const RangeClock m = RangeClock::merged(a, b);
    bool a_covers_b = true;
    for (uint32_t i = 0; i < 96; ++i) {
      ASSERT_EQ(raw(a.at(t(i))), da[i]);
      ASSERT_EQ(raw(m.at(t(i))), std::max(da[i], db[i]));
      a_covers_b &= da[i] >= db[i];
    }
    ASSERT_EQ(a.covers(b), a_covers_b) << "round " << round;
  }
}

}  // namespace
}  // namespace barracuda::engine
