// Unfenced acquire (issue 15 part 2): a spin on a legacy atomic with no acquire fence after it (or
// one of too narrow a scope) orders nothing in the PTX model, but GPUs honour the control
// dependency. A race that the missing fence would have ordered is the warning class "unfenced
// acquire" (Race::unfenced_acquire), keeping its class; a hand-off with no release stays a plain race.
#include <gtest/gtest.h>

#include "scenario.h"

namespace barracuda::engine::test {
namespace {

constexpr uint64_t kData = 0x20000;
constexpr uint64_t kFlag = 0x30000;
constexpr uint64_t kFlag2 = 0x30100;
constexpr uint64_t kOther = 0x40000;
const Dim3 kTwoBlocks{2, 1, 1};
const Dim3 kTwoWarps{64, 1, 1};

AccessOptions legacy_atomic(MemoryScope scope = MemoryScope::kGpu) {
  return {.sem = MemorySemantics::kLegacy, .scope = scope};
}

// Block 0 publishes (data, then optionally __threadfence(), then atomicExch(flag, 1)); block 1
// spins with atomicExch(flag, 0) (one logged iteration that found the flag), optionally fences, and
// then touches the data.
struct HandOff {
  SiteId write, flag_read, use;
};
HandOff hand_off(Scenario& s, bool writer_fence, std::optional<MemoryScope> reader_fence, bool reader_writes = false) {
  HandOff h{};
  h.write = s.warp(0, 0).store(lane(0), kData);
  if (writer_fence) s.warp(0, 0).fence(MemorySemantics::kLegacy, MemoryScope::kGpu, lane(0));
  s.warp(0, 0).atomic(lane(0), kFlag, 4, legacy_atomic());
  h.flag_read = s.warp(1, 0).atomic(lane(0), kFlag, 4, legacy_atomic());
  if (reader_fence) s.warp(1, 0).fence(MemorySemantics::kLegacy, *reader_fence, lane(0));
  h.use = reader_writes ? s.warp(1, 0).store(lane(0), kData) : s.warp(1, 0).load(lane(0), kData);
  return h;
}

TEST(UnfencedAcquire, SpinWithoutFenceIsAWarningNotARace) {
  Scenario s(kTwoBlocks, kTwoWarps);
  const HandOff h = hand_off(s, true, std::nullopt);
  s.run();
  const auto race = s.race(h.write, h.use);
  ASSERT_TRUE(race);
  EXPECT_TRUE(race->unfenced_acquire);
  EXPECT_EQ(race->race_class, RaceClass::kInterBlock);  // its class if reported as a race
  EXPECT_EQ(race->hazard, Hazard::kReadAfterWrite);
  ASSERT_TRUE(race->unfenced.valid);
  EXPECT_EQ(race->unfenced.flag_site, h.flag_read);
  EXPECT_EQ(race->unfenced.needed, MemoryScope::kGpu);
  EXPECT_FALSE(race->unfenced.narrow_fence);
}

TEST(UnfencedAcquire, SpinWithFenceIsClean) {
  Scenario s(kTwoBlocks, kTwoWarps);
  const HandOff h = hand_off(s, true, MemoryScope::kGpu);
  s.run();
  EXPECT_FALSE(s.race(h.write, h.use));
  EXPECT_TRUE(s.races().empty());
}

TEST(UnfencedAcquire, WriterWithoutReleaseStaysARace) {
  for (bool reader_fence : {false, true}) {
    Scenario s(kTwoBlocks, kTwoWarps);
    const HandOff h = hand_off(s, false, reader_fence ? std::optional(MemoryScope::kGpu) : std::nullopt);
    s.run();
    const auto race = s.race(h.write, h.use);
    ASSERT_TRUE(race) << "reader_fence=" << reader_fence;
    EXPECT_FALSE(race->unfenced_acquire);
    EXPECT_EQ(race->race_class, RaceClass::kInterBlock);
  }
}

TEST(UnfencedAcquire, WriteAfterSpinIsAWarningToo) {
  Scenario s(kTwoBlocks, kTwoWarps);
  const HandOff h = hand_off(s, true, std::nullopt, /*reader_writes=*/true);
  s.run();
  const auto race = s.race(h.write, h.use);
  ASSERT_TRUE(race);
  EXPECT_TRUE(race->unfenced_acquire);
  EXPECT_EQ(race->hazard, Hazard::kWriteAfterWrite);
}

// A spin whose fence is __threadfence_block() while the flag came from another block: the reader's
// scope is the missing piece. Without the unfenced view this was a scoped race.
TEST(UnfencedAcquire, ReaderFenceTooNarrowIsAWarningNamingTheScope) {
  Scenario s(kTwoBlocks, kTwoWarps);
  const HandOff h = hand_off(s, true, MemoryScope::kCta);
  s.run();
  const auto race = s.race(h.write, h.use);
  ASSERT_TRUE(race);
  EXPECT_TRUE(race->unfenced_acquire);
  EXPECT_EQ(race->race_class, RaceClass::kScoped);
  EXPECT_TRUE(race->unfenced.narrow_fence);
  EXPECT_EQ(race->unfenced.fence, MemoryScope::kCta);
  EXPECT_EQ(race->unfenced.flag_site, h.flag_read);
}

// A genuine scope error on the writer side (its release fence is __threadfence_block()) stays a
// scoped race, with or without the reader's fence (fence/volatile_data_block_fence_flag).
TEST(UnfencedAcquire, WriterScopeErrorStaysScoped) {
  for (bool reader_fence : {false, true}) {
    Scenario s(kTwoBlocks, kTwoWarps);
    const SiteId w = s.warp(0, 0).store(lane(0), kData);
    s.warp(0, 0).fence(MemorySemantics::kLegacy, MemoryScope::kCta, lane(0));
    s.warp(0, 0).atomic(lane(0), kFlag, 4, legacy_atomic());
    s.warp(1, 0).atomic(lane(0), kFlag, 4, legacy_atomic());
    if (reader_fence) s.warp(1, 0).fence(MemorySemantics::kLegacy, MemoryScope::kGpu, lane(0));
    const SiteId r = s.warp(1, 0).load(lane(0), kData);
    s.run();
    const auto race = s.race(w, r);
    ASSERT_TRUE(race) << "reader_fence=" << reader_fence;
    EXPECT_FALSE(race->unfenced_acquire) << "reader_fence=" << reader_fence;
    EXPECT_EQ(race->race_class, reader_fence ? RaceClass::kScoped : RaceClass::kInterBlock);
  }
}

// HRF-indirect: within block 0, warp 0 hands the data to warp 1 through atomicExch_block +
// __threadfence_block(); warp 1 then hands it on through a device-scope flag to block 1, with the
// right fence on its release side; block 1's spin has no fence. Transitively ordered but for that
// fence: a warning naming block 1's spin.
TEST(UnfencedAcquire, MixedScopeChainIsTransitive) {
  Scenario s(kTwoBlocks, kTwoWarps);
  const SiteId w = s.warp(0, 0).store(lane(0), kData);
  s.warp(0, 0).fence(MemorySemantics::kLegacy, MemoryScope::kCta, lane(0));
  s.warp(0, 0).atomic(lane(0), kFlag, 4, legacy_atomic(MemoryScope::kCta));
  s.warp(0, 1).atomic(lane(0), kFlag, 4, legacy_atomic(MemoryScope::kCta));
  s.warp(0, 1).fence(MemorySemantics::kLegacy, MemoryScope::kCta, lane(0));
  s.warp(0, 1).fence(MemorySemantics::kLegacy, MemoryScope::kGpu, lane(0));
  s.warp(0, 1).atomic(lane(0), kFlag2, 4, legacy_atomic());
  const SiteId spin = s.warp(1, 0).atomic(lane(0), kFlag2, 4, legacy_atomic());
  const SiteId r = s.warp(1, 0).store(lane(0), kData);
  s.run();
  const auto race = s.race(w, r);
  ASSERT_TRUE(race);
  EXPECT_TRUE(race->unfenced_acquire);
  EXPECT_EQ(race->unfenced.flag_site, spin);
}

// The chain the other way round: block 1's device-scope flag reaches warp 0 of block 0, whose spin
// is followed only by __threadfence_block(); warp 0 hands on within the block with
// atomicExch_block + fences. The middle link's reader scope is the missing piece (was: scoped WAW).
TEST(UnfencedAcquire, MixedScopeChainWithNarrowMiddleFence) {
  Scenario s(kTwoBlocks, kTwoWarps);
  const SiteId w = s.warp(1, 0).store(lane(0), kData);
  s.warp(1, 0).fence(MemorySemantics::kLegacy, MemoryScope::kGpu, lane(0));
  s.warp(1, 0).atomic(lane(0), kFlag2, 4, legacy_atomic());
  const SiteId spin = s.warp(0, 0).atomic(lane(0), kFlag2, 4, legacy_atomic());
  s.warp(0, 0).fence(MemorySemantics::kLegacy, MemoryScope::kCta, lane(0));
  s.warp(0, 0).atomic(lane(0), kFlag, 4, legacy_atomic(MemoryScope::kCta));
  s.warp(0, 1).atomic(lane(0), kFlag, 4, legacy_atomic(MemoryScope::kCta));
  s.warp(0, 1).fence(MemorySemantics::kLegacy, MemoryScope::kCta, lane(0));
  const SiteId r = s.warp(0, 1).store(lane(0), kData);
  s.run();
  const auto race = s.race(w, r);
  ASSERT_TRUE(race);
  EXPECT_EQ(race->race_class, RaceClass::kScoped);
  EXPECT_TRUE(race->unfenced_acquire);
  EXPECT_EQ(race->unfenced.flag_site, spin);
  EXPECT_TRUE(race->unfenced.narrow_fence);
}

// What the unfenced spin learnt reaches the block's other threads at a barrier.
TEST(UnfencedAcquire, ReachesBlockMatesThroughABarrier) {
  Scenario s(kTwoBlocks, kTwoWarps);
  const SiteId w = s.warp(0, 0).store(lane(0), kData);
  s.warp(0, 0).fence(MemorySemantics::kLegacy, MemoryScope::kGpu, lane(0));
  s.warp(0, 0).atomic(lane(0), kFlag, 4, legacy_atomic());
  s.warp(1, 0).atomic(lane(0), kFlag, 4, legacy_atomic());
  s.warp(1, 0).barrier();
  s.warp(1, 1).barrier();
  const SiteId r = s.warp(1, 1).load(lane(5), kData, 0);  // lane 5 of warp 1 reads the data too
  s.run();
  const auto race = s.race(w, r);
  ASSERT_TRUE(race);
  EXPECT_TRUE(race->unfenced_acquire);
}

// A data race unrelated to the spin, next to it, stays a race.
TEST(UnfencedAcquire, UnrelatedRaceBesideASpinStaysARace) {
  Scenario s(kTwoBlocks, kTwoWarps);
  const SiteId other_write = s.warp(0, 0).store(lane(0), kOther);  // after... nothing: not released
  const HandOff h = hand_off(s, true, std::nullopt);
  const SiteId late_write = s.warp(0, 0).store(lane(0), kOther + 64);  // after the release
  const SiteId other_read = s.warp(1, 0).load(lane(0), kOther + 64);
  const SiteId unrelated = s.warp(1, 1).load(lane(0), kOther);  // warp 1 of block 1 never spun
  s.run();
  ASSERT_TRUE(s.race(h.write, h.use));
  EXPECT_TRUE(s.race(h.write, h.use)->unfenced_acquire);
  ASSERT_TRUE(s.race(late_write, other_read));
  EXPECT_FALSE(s.race(late_write, other_read)->unfenced_acquire);
  ASSERT_TRUE(s.race(other_write, unrelated));
  EXPECT_FALSE(s.race(other_write, unrelated)->unfenced_acquire);
}

// A lock taken with a spin on atomicCAS and no fence, released with __threadfence() + atomicExch:
// the critical sections are ordered but for the missing acquire fence.
TEST(UnfencedAcquire, LockWithoutAcquireFence) {
  Scenario s(kTwoBlocks, kTwoWarps);
  s.warp(0, 0).atomic(lane(0), kFlag, 4, legacy_atomic());  // atomicCAS(lock, 0, 1) == 0
  const SiteId first = s.warp(0, 0).store(lane(0), kData);
  s.warp(0, 0).fence(MemorySemantics::kLegacy, MemoryScope::kGpu, lane(0));
  s.warp(0, 0).atomic(lane(0), kFlag, 4, legacy_atomic());  // atomicExch(lock, 0)
  s.warp(1, 0).atomic(lane(0), kFlag, 4, legacy_atomic());  // atomicCAS(lock, 0, 1) == 0
  const SiteId second = s.warp(1, 0).store(lane(0), kData);
  s.run();
  const auto race = s.race(first, second);
  ASSERT_TRUE(race);
  EXPECT_TRUE(race->unfenced_acquire);
}

// A block fence after the spin, then a device fence: the second completes the acquire the first was
// too narrow for, so there is neither a race nor a warning.
TEST(UnfencedAcquire, AWideFenceAfterANarrowOneStillAcquires) {
  for (bool wide_fence : {true, false}) {
    Scenario s(kTwoBlocks, kTwoWarps);
    const SiteId w = s.warp(0, 0).store(lane(0), kData);
    s.warp(0, 0).fence(MemorySemantics::kLegacy, MemoryScope::kGpu, lane(0));
    s.warp(0, 0).atomic(lane(0), kFlag, 4, legacy_atomic());
    s.warp(1, 0).atomic(lane(0), kFlag, 4, legacy_atomic());
    s.warp(1, 0).fence(MemorySemantics::kLegacy, MemoryScope::kCta, lane(0));
    if (wide_fence) s.warp(1, 0).fence(MemorySemantics::kLegacy, MemoryScope::kGpu, lane(0));
    const SiteId r = s.warp(1, 0).load(lane(0), kData);
    s.run();
    if (wide_fence) {
      EXPECT_TRUE(s.races().empty());
    } else {
      ASSERT_TRUE(s.race(w, r));
      EXPECT_TRUE(s.race(w, r)->unfenced_acquire);
      EXPECT_TRUE(s.race(w, r)->unfenced.narrow_fence);
    }
  }
}

// An adequate fence after the spin gives the blame back: a later, unrelated spin-free race of the
// same thread is not attributed to it, and the hand-off is clean.
TEST(UnfencedAcquire, AdequateFenceRestoresTheOrigin) {
  Scenario s(kTwoBlocks, kTwoWarps);
  // Block 1 spins without a fence on flag A (the unfenced acquire that orders the data)...
  const SiteId w = s.warp(0, 0).store(lane(0), kData);
  s.warp(0, 0).fence(MemorySemantics::kLegacy, MemoryScope::kGpu, lane(0));
  s.warp(0, 0).atomic(lane(0), kFlag, 4, legacy_atomic());
  const SiteId spin_a = s.warp(1, 0).atomic(lane(0), kFlag, 4, legacy_atomic());
  // ...then on flag B, set by another warp, with its fence: that spin is not to blame.
  s.warp(0, 1).store(lane(0), kOther);
  s.warp(0, 1).fence(MemorySemantics::kLegacy, MemoryScope::kGpu, lane(0));
  s.warp(0, 1).atomic(lane(0), kFlag2, 4, legacy_atomic());
  s.warp(1, 0).atomic(lane(0), kFlag2, 4, legacy_atomic());
  s.warp(1, 0).fence(MemorySemantics::kLegacy, MemoryScope::kGpu, lane(0));
  const SiteId r = s.warp(1, 0).load(lane(0), kData);
  s.run();
  const auto race = s.race(w, r);
  ASSERT_TRUE(race);
  EXPECT_TRUE(race->unfenced_acquire);
  EXPECT_EQ(race->unfenced.flag_site, spin_a);
  EXPECT_FALSE(race->unfenced.narrow_fence);
}

}  // namespace
}  // namespace barracuda::engine::test
