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
  auto big = std::make_shared<const RangeClock>(std::vector<ClockRange>{{0, 100, c(9)}});
  auto small = std::make_shared<const RangeClock>(std::vector<ClockRange>{{5, 6, c(2)}});
  EXPECT_EQ(join(big, small), big);
  EXPECT_EQ(join(small, big), big);
  EXPECT_EQ(join(nullptr, small), small);
  EXPECT_FALSE(small->covers(*big));
}

// Against a dense array on random inputs: at(), covers() and merged() agree pointwise.
TEST(RangeClock, MatchesDenseVectorsOnRandomInputs) {
  std::mt19937 rng(42);
  for (int round = 0; round < 2000; ++round) {
    auto random_clock = [&](std::vector<uint32_t>& dense) {
      std::vector<ClockRange> ranges;
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
