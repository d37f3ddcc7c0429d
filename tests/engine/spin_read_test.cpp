// Volatile spin reads (kFlagSpinRead: an ld.volatile whose value decides whether its loop iterates
// again): a spin read and a volatile store of the same location are a morally strong pair (relaxed.sys
// both in the PTX model), so CUB's decoupled look-back, which publishes value|status in one word with
// an unfenced volatile store, is not a race. Everything else about volatile stays (docs/engine.md,
// "volatile is not atomic"): volatile write-write, a volatile store against a read that is not a spin,
// plain against volatile, and data handed over through such a flag without a fence pair.
#include <gtest/gtest.h>

#include <vector>

#include "scenario.h"

namespace barracuda::engine::test {
namespace {

constexpr uint64_t kData = 0x20000;
constexpr uint64_t kFlag = 0x30000;
constexpr uint64_t kLock = 0x40000;
const Dim3 kTwoBlocks{2, 1, 1};
const Dim3 kTwoWarps{64, 1, 1};
constexpr AccessOptions kVolatile{.sem = MemorySemantics::kVolatile, .scope = MemoryScope::kSystem};
constexpr AccessOptions kSpin{.sem = MemorySemantics::kVolatile, .scope = MemoryScope::kSystem,
                              .flags = kFlagSpinRead};
constexpr uint32_t kBins = 4;  // look-back words per block (lanes 0-3 each own a digit)

// Locks `lock` as the CAS spin lock idiom does (atomicCAS succeeded, __threadfence()).
void lock(WarpScript w, uint32_t lanes) {
  w.atomic(lanes, kLock, 0);
  w.fence(MemorySemantics::kLegacy, MemoryScope::kGpu, lanes);
}
void unlock(WarpScript w, uint32_t lanes) {
  w.fence(MemorySemantics::kLegacy, MemoryScope::kGpu, lanes);
  w.atomic(lanes, kLock, 0);  // atomicExch(&lock, 0)
}

// CUB's onesweep look-back (LookbackPartial / LookbackGlobal): each block stores its digit counts
// with the "partial" status, spins on every earlier block's word until it is non-zero, then stores
// its inclusive sums with the "global" status. No fence anywhere. Spins that find the word still
// zero come before the store they wait for, later ones after it: neither order races.
TEST(SpinReads, CubDecoupledLookBackIsNotARace) {
  for (WarpModel model : {WarpModel::kIndependent, WarpModel::kLockstep}) {
    constexpr uint32_t kBlocks = 3;
    Scenario s(Dim3{kBlocks, 1, 1}, Dim3{32, 1, 1}, model);
    const uint32_t bins = (1u << kBins) - 1;
    // Block 2 starts spinning on blocks 0 and 1 before they have published anything.
    s.warp(2, 0).load(bins, kFlag + 0 * 16, 4, kSpin);
    s.warp(1, 0).load(bins, kFlag + 0 * 16, 4, kSpin);
    for (uint32_t b = 0; b < kBlocks; ++b) s.warp(b, 0).store(bins, kFlag + b * 16, 4, kVolatile);  // partial
    s.warp(2, 0).load(bins, kFlag + 1 * 16, 4, kSpin);
    s.warp(1, 0).load(bins, kFlag + 0 * 16, 4, kSpin);  // found block 0's partial
    s.warp(0, 0).store(bins, kFlag + 0 * 16, 4, kVolatile);  // block 0: global
    s.warp(1, 0).load(bins, kFlag + 0 * 16, 4, kSpin);
    s.warp(1, 0).store(bins, kFlag + 1 * 16, 4, kVolatile);  // block 1: global
    s.warp(2, 0).load(bins, kFlag + 1 * 16, 4, kSpin);
    s.warp(2, 0).store(bins, kFlag + 2 * 16, 4, kVolatile);  // block 2: global
    s.run();
    EXPECT_TRUE(s.races().empty()) << s.races().size();
  }
}

TEST(SpinReads, ASpinReadAndAVolatileStoreDoNotRaceInEitherOrderOrPlace) {
  for (bool store_first : {true, false}) {
    for (uint32_t reader_block : {0u, 1u}) {
      Scenario s(kTwoBlocks, kTwoWarps);
      const auto store = [&] { return s.warp(0, 0).store(lane(0), kFlag, 4, kVolatile); };
      const auto spin = [&] { return s.warp(reader_block, 1).load(lane(0), kFlag, 4, kSpin); };
      if (store_first) {
        store();
        spin();
      } else {
        spin();
        store();
      }
      s.run();
      EXPECT_TRUE(s.races().empty()) << "store_first=" << store_first << " reader_block=" << reader_block;
    }
  }
}

// A byte of the flag word spun on (a status byte) against the whole word's volatile store.
TEST(SpinReads, ASpinReadOfOneByteOfAVolatileStoreIsNotARace) {
  Scenario s(kTwoBlocks, kTwoWarps);
  s.warp(0, 0).store(lane(0), kFlag, 4, kVolatile);
  s.warp(1, 0).load(lane(0), kFlag + 3, 1, {.sem = MemorySemantics::kVolatile, .size_log2 = 0, .flags = kFlagSpinRead});
  s.run();
  EXPECT_TRUE(s.races().empty()) << s.races().size();
}

// (a) One block writes volatile data inside a CAS spin lock with fences, another writes it (volatile)
// without taking the lock: a write-write race, spin reads of the data nearby notwithstanding.
TEST(SpinReads, AVolatileWriteBypassingTheLockStillRaces) {
  Scenario s(kTwoBlocks, kTwoWarps);
  lock(s.warp(0, 0), lane(0));
  const SiteId locked = s.warp(0, 0).store(lane(0), kData, 4, kVolatile);
  unlock(s.warp(0, 0), lane(0));
  const SiteId bypass = s.warp(1, 0).store(lane(0), kData, 4, kVolatile);
  s.warp(1, 1).load(lane(0), kData, 4, kSpin);
  s.run();
  ASSERT_TRUE(s.race(locked, bypass));
  EXPECT_EQ(s.race(locked, bypass)->hazard, Hazard::kWriteAfterWrite);
  EXPECT_EQ(s.race(locked, bypass)->race_class, RaceClass::kInterBlock);
}

// Two blocks publishing into one flag word with unfenced volatile stores: write-write still races.
TEST(SpinReads, TwoUnfencedVolatileStoresOfOneSpunOnWordStillRace) {
  Scenario s(Dim3{3, 1, 1}, kTwoWarps);
  const SiteId a = s.warp(0, 0).store(lane(0), kFlag, 4, kVolatile);
  s.warp(2, 0).load(lane(0), kFlag, 4, kSpin);
  const SiteId b = s.warp(1, 0).store(lane(0), kFlag, 4, kVolatile);
  s.run();
  ASSERT_TRUE(s.race(a, b));
  EXPECT_EQ(s.races().size(), 1u);
}

// (b) atomicExch in one warp, a volatile store in another warp of the same block: atomic-plain race.
TEST(SpinReads, AnAtomicAndAVolatileStoreStillRace) {
  Scenario s(Dim3{1, 1, 1}, kTwoWarps);
  const SiteId exchange = s.warp(0, 0).atomic(lane(0), kData);
  s.warp(0, 0).load(lane(0), kData, 4, kSpin);
  const SiteId store = s.warp(0, 1).store(lane(0), kData, 4, kVolatile);
  s.run();
  ASSERT_TRUE(s.race(exchange, store));
  EXPECT_EQ(s.race(exchange, store)->hazard, Hazard::kAtomicPlain);
  EXPECT_EQ(s.race(exchange, store)->race_class, RaceClass::kInterWarp);
}

// (c) Flag hand-off between blocks whose release fence is __threadfence_block(): the flag is spun on
// (no race on it), the data it hands over races (scoped: the fence's scope is too narrow).
TEST(SpinReads, AHandOffThroughASpunOnFlagWithABlockFenceStillRacesOnTheData) {
  for (bool volatile_data : {false, true}) {
    Scenario s(kTwoBlocks, kTwoWarps);
    const AccessOptions data = volatile_data ? kVolatile : AccessOptions{};
    const SiteId w = s.warp(0, 0).store(lane(0), kData, 4, data);
    s.warp(0, 0).fence(MemorySemantics::kLegacy, MemoryScope::kCta, lane(0));
    const SiteId flag_store = s.warp(0, 0).store(lane(0), kFlag, 4, kVolatile);
    const SiteId spin = s.warp(1, 0).load(lane(0), kFlag, 4, kSpin);
    s.warp(1, 0).fence(MemorySemantics::kLegacy, MemoryScope::kCta, lane(0));
    const SiteId r = s.warp(1, 0).load(lane(0), kData, 4, data);
    s.run();
    EXPECT_FALSE(s.race(flag_store, spin));
    ASSERT_TRUE(s.race(w, r)) << "volatile_data=" << volatile_data;
    EXPECT_EQ(s.race(w, r)->race_class, RaceClass::kScoped);
  }
}

// The spin read acquires nothing by itself: data written before an unfenced volatile flag store
// races with its reader's load after the spin, whatever fence the reader adds.
TEST(SpinReads, ASpinReadAcquiresNothingWithoutTheWritersFence) {
  for (bool reader_fence : {false, true}) {
    Scenario s(kTwoBlocks, kTwoWarps);
    const SiteId w = s.warp(0, 0).store(lane(0), kData);
    const SiteId flag_store = s.warp(0, 0).store(lane(0), kFlag, 4, kVolatile);
    const SiteId spin = s.warp(1, 0).load(lane(0), kFlag, 4, kSpin);
    if (reader_fence) s.warp(1, 0).fence(MemorySemantics::kLegacy, MemoryScope::kGpu, lane(0));
    const SiteId r = s.warp(1, 0).load(lane(0), kData);
    s.run();
    EXPECT_FALSE(s.race(flag_store, spin));
    ASSERT_TRUE(s.race(w, r)) << "reader_fence=" << reader_fence;
    EXPECT_EQ(s.race(w, r)->race_class, RaceClass::kInterBlock);
    EXPECT_FALSE(s.race(w, r)->unfenced_acquire);
  }
}

// With the fence pair (__threadfence() before the flag, and after the spin) the data is ordered.
TEST(SpinReads, AFencedHandOffThroughASpunOnFlagIsOrdered) {
  Scenario s(kTwoBlocks, kTwoWarps);
  s.warp(0, 0).store(lane(0), kData);
  s.warp(0, 0).fence(MemorySemantics::kLegacy, MemoryScope::kGpu, lane(0));
  s.warp(0, 0).store(lane(0), kFlag, 4, kVolatile);
  s.warp(1, 0).load(lane(0), kFlag, 4, kSpin);
  s.warp(1, 0).fence(MemorySemantics::kLegacy, MemoryScope::kGpu, lane(0));
  s.warp(1, 0).load(lane(0), kData);
  s.run();
  EXPECT_TRUE(s.races().empty()) << s.races().size();
}

// (d) A plain read of a word another thread writes with a volatile store: a race, also where the
// record carries the spin flag (only volatile loads can be spin reads).
TEST(SpinReads, APlainReadOfAVolatileStoreStillRaces) {
  for (uint8_t flags : {uint8_t{0}, uint8_t{kFlagSpinRead}}) {
    Scenario s(kTwoBlocks, kTwoWarps);
    const SiteId store = s.warp(0, 0).store(lane(0), kFlag, 4, kVolatile);
    const SiteId read = s.warp(1, 0).load(lane(0), kFlag, 4, {.flags = flags});
    s.run();
    ASSERT_TRUE(s.race(store, read)) << int{flags};
    EXPECT_EQ(s.race(store, read)->hazard, Hazard::kReadAfterWrite);
  }
}

// (e) A single volatile read of lock-protected data that bypasses the lock (no spin: it reads once)
// races with the volatile write under the lock, which completes the lock's fence and so is strong;
// the same read as a spin would not.
TEST(SpinReads, AVolatileReadBypassingTheLockRacesUnlessItSpins) {
  for (bool spins : {false, true}) {
    for (bool read_first : {false, true}) {
      Scenario s(kTwoBlocks, kTwoWarps);
      const auto bypass = [&] { return s.warp(1, 0).load(lane(0), kData, 4, spins ? kSpin : kVolatile); };
      SiteId read{};
      if (read_first) read = bypass();
      lock(s.warp(0, 0), lane(0));
      const SiteId locked = s.warp(0, 0).store(lane(0), kData, 4, kVolatile);
      unlock(s.warp(0, 0), lane(0));
      if (!read_first) read = bypass();
      s.run();
      EXPECT_EQ(s.race(locked, read).has_value(), !spins) << "spins=" << spins << " read_first=" << read_first;
      if (!spins && s.race(locked, read)) {
        EXPECT_EQ(s.race(locked, read)->hazard, read_first ? Hazard::kWriteAfterRead : Hazard::kReadAfterWrite);
      }
    }
  }
}

// A volatile flag written after __threadfence() (a strong store) and read once, not in a spin, by
// another block: the read is not a spin read, so the pair races although both are strong to the
// rest of the rule; spun on, it does not.
TEST(SpinReads, AFencedVolatileFlagReadOnceRacesAndSpunOnDoesNot) {
  for (bool spins : {false, true}) {
    Scenario s(kTwoBlocks, kTwoWarps);
    s.warp(0, 0).store(lane(0), kData);
    s.warp(0, 0).fence(MemorySemantics::kLegacy, MemoryScope::kGpu, lane(0));
    const SiteId flag_store = s.warp(0, 0).store(lane(0), kFlag, 4, kVolatile);
    const SiteId read = s.warp(1, 0).load(lane(0), kFlag, 4, spins ? kSpin : kVolatile);
    s.warp(1, 0).fence(MemorySemantics::kLegacy, MemoryScope::kGpu, lane(0));
    s.warp(1, 0).load(lane(0), kData);
    s.run();
    EXPECT_EQ(s.race(flag_store, read).has_value(), !spins) << "spins=" << spins;
    EXPECT_EQ(s.races().size(), spins ? 0u : 1u);
  }
}

// A non-spin volatile read stays strong against everything but a volatile store: relaxed stores and
// atomics of the word do not race with it.
TEST(SpinReads, AVolatileReadOnceIsStillStrongAgainstRelaxedStoresAndAtomics) {
  Scenario s(kTwoBlocks, kTwoWarps);
  s.warp(0, 0).store(lane(0), kFlag, 4, {.sem = MemorySemantics::kRelaxed, .scope = MemoryScope::kSystem});
  s.warp(1, 0).load(lane(0), kFlag, 4, kVolatile);
  s.warp(0, 1).atomic(lane(0), kFlag);
  s.run();
  EXPECT_TRUE(s.races().empty()) << s.races().size();
}

// A spin read whose flag is written with a plain (non-volatile) store: a race, in either order.
TEST(SpinReads, ASpinReadOfAPlainStoreRaces) {
  for (bool store_first : {true, false}) {
    Scenario s(kTwoBlocks, kTwoWarps);
    SiteId store{}, spin{};
    if (store_first) store = s.warp(0, 0).store(lane(0), kFlag);
    spin = s.warp(1, 0).load(lane(0), kFlag, 4, kSpin);
    if (!store_first) store = s.warp(0, 0).store(lane(0), kFlag);
    s.run();
    ASSERT_TRUE(s.race(store, spin)) << "store_first=" << store_first;
    EXPECT_EQ(s.races().size(), 1u);
  }
}

// A spin read and a plain or weak access of the same word are not a pair: a plain write after the
// spins races with them, and a volatile store beside it still races with the plain write.
TEST(SpinReads, APlainWriteAfterSpinsRacesWithThemAndWithTheVolatileStore) {
  Scenario s(Dim3{3, 1, 1}, kTwoWarps);
  const SiteId flag_store = s.warp(0, 0).store(lane(0), kFlag, 4, kVolatile);
  const SiteId spin = s.warp(1, 0).load(lane(0), kFlag, 4, kSpin);
  const SiteId plain = s.warp(2, 0).store(lane(0), kFlag);
  s.run();
  EXPECT_FALSE(s.race(flag_store, spin));
  EXPECT_TRUE(s.race(flag_store, plain));
  EXPECT_TRUE(s.race(spin, plain));
}

// A "done counter": blocks set their slot with volatile stores (no fence), one thread polls every slot
// with volatile spin reads until all are set. Race-free; the blocks' other data read after it is not.
TEST(SpinReads, ADoneCounterPolledBySpinReadsIsNotARace) {
  Scenario s(Dim3{3, 1, 1}, kTwoWarps);
  s.warp(2, 0).load(lane(0), kFlag, 4, kSpin);
  s.warp(2, 0).load(lane(0), kFlag + 4, 4, kSpin);
  const SiteId w = s.warp(0, 1).store(lane(0), kData);
  for (uint32_t b = 0; b < 2; ++b) s.warp(b, 1).store(lane(0), kFlag + b * 4, 4, kVolatile);
  s.warp(2, 0).load(lane(0), kFlag, 4, kSpin);
  s.warp(2, 0).load(lane(0), kFlag + 4, 4, kSpin);
  const SiteId r = s.warp(2, 0).load(lane(0), kData);
  s.run();
  ASSERT_EQ(s.races().size(), 1u);
  EXPECT_TRUE(s.race(w, r));
}

}  // namespace
}  // namespace barracuda::engine::test
