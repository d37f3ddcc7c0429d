// Same-epoch re-reads (CheckedRead): a thread reading the same global bytes again at the same site,
// with the same clock, after no write of its own and none checked in the word's shadow stripe, is not
// checked again (from the third such read on: the second takes the stripe's write generation). A spinning look-back's re-reads are the common case; whatever could make the re-read
// race differently from the first read must make the engine check it.
#include <gtest/gtest.h>

#include "scenario.h"

namespace barracuda::engine::test {
namespace {

constexpr uint64_t kData = 0x20000;
const Dim3 kTwoBlocks{2, 1, 1};
const Dim3 kOneWarp{32, 1, 1};
const Dim3 kTwoWarps{64, 1, 1};
constexpr uint32_t kSpins = 100;

AccessOptions at(SiteId site) { return AccessOptions{.site = site}; }

TEST(RepeatedReads, ASpinningWarpsReReadsAreSkippedAndTheirRaceStillFound) {
  Scenario s(kTwoBlocks, kOneWarp);
  const SiteId r = s.warp(1, 0).load(kAllLanes, kData);
  for (uint32_t i = 1; i < kSpins; ++i) s.warp(1, 0).load(kAllLanes, kData, 4, at(r));
  const SiteId w = s.warp(0, 0).store(lane(3), kData + 3 * 4);
  s.run();
  EXPECT_EQ(s.stats().repeated_reads, (kSpins - 2) * 32);
  EXPECT_TRUE(s.race(r, w).has_value());
}

// Another thread's writes in between: the re-read races with the last of them, which the first read
// never met (the first write took the reads away).
TEST(RepeatedReads, AReReadAfterAWriteInItsStripeIsChecked) {
  Scenario s(kTwoBlocks, kOneWarp);
  const SiteId r = s.warp(1, 0).load(lane(0), kData);
  s.warp(1, 0).load(lane(0), kData, 4, at(r));  // the generation is known from here on
  const SiteId w1 = s.warp(0, 0).store(lane(0), kData);
  const SiteId w2 = s.warp(0, 0).store(lane(0), kData);
  s.warp(1, 0).load(lane(0), kData, 4, at(r));
  s.run();
  EXPECT_TRUE(s.race(r, w1).has_value());
  EXPECT_TRUE(s.race(r, w2).has_value());
  EXPECT_EQ(s.stats().repeated_reads, 0u);
}

// A barrier between the reads moves the reader's clock on: the block-mate that writes after the
// barrier is ordered after the first read, not after the second.
TEST(RepeatedReads, AReReadAfterTheReadersClockMovedIsChecked) {
  Scenario s(Dim3{1, 1, 1}, kTwoWarps);
  const SiteId r = s.warp(0, 0).load(lane(0), kData);
  s.warp(0, 0).load(lane(0), kData, 4, at(r));
  s.warp(0, 0).barrier();
  s.warp(0, 1).barrier();
  s.warp(0, 0).load(lane(0), kData, 4, at(r));
  const SiteId w = s.warp(0, 1).store(lane(0), kData);
  s.run();
  EXPECT_TRUE(s.race(r, w).has_value());
  EXPECT_EQ(s.stats().repeated_reads, 0u);
}

// The reader's own write in between (to any address) ends the epoch's reads as far as the cache is
// concerned; so does another site or size.
TEST(RepeatedReads, OnlyTheSameReadIsSkipped) {
  Scenario s(kTwoBlocks, kOneWarp);
  const SiteId r = s.warp(1, 0).load(lane(0), kData);
  s.warp(1, 0).load(lane(0), kData, 4, at(r));
  s.warp(1, 0).store(lane(0), kData + 0x10000);
  s.warp(1, 0).load(lane(0), kData, 4, at(r));                      // after its own write: checked
  s.warp(1, 0).load(lane(0), kData);                                // another site: checked
  s.warp(1, 0).load(lane(0), kData, 4, {.size_log2 = 3, .site = r});  // 8 bytes: checked
  s.warp(1, 0).load(lane(0), kData, 4, {.size_log2 = 3, .site = r});  // the same again: its generation taken
  s.warp(1, 0).load(lane(0), kData, 4, {.size_log2 = 3, .site = r});  // and again: skipped
  s.run();
  EXPECT_EQ(s.stats().repeated_reads, 1u);
}

}  // namespace
}  // namespace barracuda::engine::test
