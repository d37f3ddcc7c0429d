// Plain accesses, barriers, warp models, byte granularity, memory spaces.
#include <gtest/gtest.h>

#include "scenario.h"

namespace barracuda::engine::test {
namespace {

constexpr uint64_t kX = 0x10000;
const Dim3 kTwoBlocks{2, 1, 1};
const Dim3 kTwoWarps{64, 1, 1};

TEST(AccessRaces, InterBlockWriteWrite) {
  Scenario s(kTwoBlocks, kTwoWarps);
  const SiteId a = s.warp(0, 0).store(lane(0), kX);
  const SiteId b = s.warp(1, 0).store(lane(0), kX);
  s.run();
  auto race = s.race(a, b);
  ASSERT_TRUE(race);
  EXPECT_EQ(race->race_class, RaceClass::kInterBlock);
  EXPECT_EQ(race->hazard, Hazard::kWriteAfterWrite);
  EXPECT_EQ(race->first_site, a);
  EXPECT_EQ(race->first_thread, (ThreadCoord{BlockId{0}, 0}));
  EXPECT_EQ(race->second_thread, (ThreadCoord{BlockId{1}, 0}));
  EXPECT_EQ(race->address, kX);
  EXPECT_EQ(race->space, MemorySpace::kGlobal);
}

TEST(AccessRaces, ReadAfterWriteAndWriteAfterReadAcrossWarps) {
  Scenario s(kTwoBlocks, kTwoWarps);
  const SiteId w = s.warp(0, 0).store(lane(3), kX, 0);
  const SiteId r = s.warp(0, 1).load(lane(5), kX, 0);
  const SiteId w2 = s.warp(0, 0).store(lane(3), kX + 64);   // kX + 76
  const SiteId r2 = s.warp(0, 1).load(lane(5), kX + 56);  // kX + 76
  s.run();
  ASSERT_TRUE(s.race(w, r));
  EXPECT_EQ(s.race(w, r)->hazard, Hazard::kReadAfterWrite);
  EXPECT_EQ(s.race(w, r)->race_class, RaceClass::kInterWarp);
  EXPECT_EQ(s.race(w, r)->second_thread.thread, 37u);
  ASSERT_TRUE(s.race(w2, r2));
  EXPECT_EQ(s.races().size(), 2u);
}

TEST(AccessRaces, WriteAfterReadKeepsEveryReader) {
  Scenario s(kTwoBlocks, kTwoWarps);
  const SiteId r1 = s.warp(0, 0).load(lane(0), kX);
  const SiteId r2 = s.warp(0, 1).load(lane(0), kX);
  const SiteId w = s.warp(1, 0).store(lane(0), kX);
  s.run();
  EXPECT_TRUE(s.race(r1, w));
  EXPECT_TRUE(s.race(r2, w));
  EXPECT_EQ(s.race(r1, w)->hazard, Hazard::kWriteAfterRead);
}

// A plain read, an atomic of a block-mate after a barrier (ordered after the read), then an atomic of
// another block: the read races with that last atomic. FastTrack's write clears the reads and leaves
// only the two atomics to compare, which never race (gpu scope): a strong write keeps the reads. With
// one reader (an inline cell) and with two (a history).
TEST(AccessRaces, AReadRacesWithAnAtomicThatFollowsOneOrderedAfterIt) {
  for (const bool two_readers : {false, true}) {
    Scenario s(kTwoBlocks, kTwoWarps);
    const SiteId read = s.warp(0, 0).load(lane(0), kX);
    if (two_readers) s.warp(0, 0).load(lane(1), kX);
    s.warp(0, 0).barrier();
    s.warp(0, 1).barrier();
    const SiteId ordered = s.warp(0, 1).atomic(lane(0), kX);
    const SiteId unordered = s.warp(1, 0).atomic(lane(0), kX);
    s.run();
    EXPECT_FALSE(s.race(read, ordered)) << "two_readers=" << two_readers;
    ASSERT_TRUE(s.race(read, unordered)) << "two_readers=" << two_readers;
    EXPECT_EQ(s.race(read, unordered)->race_class, RaceClass::kInterBlock);
    EXPECT_EQ(s.races().size(), 1u) << "two_readers=" << two_readers;
  }
}

// The same where the read's own thread made the ordered atomic (its read, then its atomicAdd): the
// atomic of another block still races with the read.
TEST(AccessRaces, AReadRacesWithAnAtomicAfterItsOwnThreadsAtomic) {
  Scenario s(kTwoBlocks, kTwoWarps);
  const SiteId read = s.warp(0, 0).load(lane(0), kX);
  s.warp(0, 0).atomic(lane(0), kX);
  const SiteId unordered = s.warp(1, 0).atomic(lane(0), kX);
  s.run();
  EXPECT_TRUE(s.race(read, unordered));
}

// Lane 0 stores plainly, then every lane of its warp adds atomically to the same word (tests/gpu's
// atomic/atomic_vs_store_lanes). Lane 0's own atomic comes first and would replace its store in the
// cell; the other lanes' atomics would then meet only an atomic, which never races with them. A strong
// write keeps the plain write it replaced, as it keeps plain reads.
TEST(AccessRaces, APlainWriteRacesWithAtomicsAfterItsOwnThreadsAtomic) {
  Scenario s(kTwoBlocks, kTwoWarps);
  const SiteId store = s.warp(0, 0).store(lane(0), kX);
  const SiteId add = s.warp(0, 0).atomic(kAllLanes, kX, 0);
  s.run();
  ASSERT_TRUE(s.race(store, add));
  EXPECT_EQ(s.race(store, add)->hazard, Hazard::kAtomicPlain);
  EXPECT_EQ(s.race(store, add)->race_class, RaceClass::kIntraWarp);
  EXPECT_EQ(s.races().size(), 1u);
}

// The same with the store ordered before the first atomic (a block-mate's, after a barrier) but not
// before a later atomic of another block: that atomic races with the store.
TEST(AccessRaces, APlainWriteRacesWithAnAtomicThatFollowsOneOrderedAfterIt) {
  Scenario s(kTwoBlocks, kTwoWarps);
  const SiteId store = s.warp(0, 0).store(lane(0), kX);
  s.warp(0, 0).barrier();
  s.warp(0, 1).barrier();
  const SiteId ordered = s.warp(0, 1).atomic(lane(0), kX);
  const SiteId unordered = s.warp(1, 0).atomic(lane(0), kX);
  s.run();
  EXPECT_FALSE(s.race(store, ordered));
  ASSERT_TRUE(s.race(store, unordered));
  EXPECT_EQ(s.race(store, unordered)->race_class, RaceClass::kInterBlock);
  EXPECT_EQ(s.race(store, unordered)->hazard, Hazard::kAtomicPlain);
}

// In a block's shared memory the plain write is not kept: the device rule that checks shared memory
// on the GPU (barracuda/shared_check.h) has no room for it, and both sides must agree. Known miss.
// The same in a block's shared memory (as the device's shared check, whose atomics never replace the
// plain write: barracuda/shared_check.h).
TEST(AccessRaces, SharedMemoryKeepsThePlainWritePastAnAtomicToo) {
  Scenario s(Dim3{1, 1, 1}, Dim3{32, 1, 1});
  const AccessOptions shared{.space = MemorySpace::kShared};
  const SiteId store = s.warp(0, 0).store(lane(0), 0x40, 4, shared);
  const SiteId add = s.warp(0, 0).atomic(kAllLanes, 0x40, 0, shared);
  s.run();
  ASSERT_TRUE(s.race(store, add));
  EXPECT_EQ(s.race(store, add)->hazard, Hazard::kAtomicPlain);
}

// In shared memory only the store's own thread's atomic keeps it: another thread's atomic, checked
// against the store itself, replaces it, and a third thread's atomic of another site meets that atomic
// only (the GPU's shared check, which never replaces the store, reports that pair too). A shared
// histogram's bins, reset and then added to, so keep no history.
TEST(AccessRaces, SharedMemoryKeepsOnlyItsOwnThreadsPlainWritePastAnAtomic) {
  for (const MemorySpace space : {MemorySpace::kShared, MemorySpace::kGlobal}) {
    Scenario s(Dim3{1, 1, 1}, Dim3{96, 1, 1});
    const AccessOptions in{.space = space};
    const SiteId store = s.warp(0, 0).store(lane(0), 0x40, 4, in);
    const SiteId first = s.warp(0, 1).atomic(lane(0), 0x40, 0, in);
    const SiteId other = s.warp(0, 2).atomic(lane(0), 0x40, 0, in);
    s.run();
    EXPECT_TRUE(s.race(store, first));
    EXPECT_EQ(s.race(store, other).has_value(), space == MemorySpace::kGlobal);
  }
}

// Warps 0 and 1 each add to a word, then warp 1 reads it (tests/gpu's atomic/shared_add_then_own_read):
// the read follows its own thread's add, the word's last write, but races with warp 0's add before it.
// A plain access checks the latest atomic of another thread as well as the last write; with and
// without a plain write before the adds, in both spaces; a third warp's add in between is the one named.
TEST(AccessRaces, AReadAfterItsOwnAtomicRacesWithAnotherThreadsAtomicBeforeIt) {
  for (const MemorySpace space : {MemorySpace::kShared, MemorySpace::kGlobal}) {
    for (const bool stored_first : {false, true}) {
      Scenario s(Dim3{1, 1, 1}, Dim3{96, 1, 1});
      const AccessOptions in{.space = space};
      if (stored_first) {
        s.warp(0, 0).store(lane(0), 0x40, 4, in);
        for (uint32_t w = 0; w < 3; ++w) s.warp(0, w).barrier();
      }
      const SiteId first = s.warp(0, 0).atomic(lane(0), 0x40, 0, in);
      const SiteId own = s.warp(0, 1).atomic(lane(0), 0x40, 0, in);
      const SiteId again = s.warp(0, 1).atomic(lane(0), 0x40, 0, in);  // the same thread's: keeps warp 0's
      const SiteId read = s.warp(0, 1).load(lane(0), 0x40, 4, in);
      s.run();
      ASSERT_TRUE(s.race(first, read)) << "space " << static_cast<int>(space) << " stored first " << stored_first;
      EXPECT_EQ(s.race(first, read)->hazard, Hazard::kAtomicPlain);
      EXPECT_EQ(s.race(first, read)->race_class, RaceClass::kInterWarp);
      EXPECT_FALSE(s.race(own, read));
      EXPECT_FALSE(s.race(again, read));
    }
  }
}

// The latest other thread's atomic is kept, and a plain write (checked against it) forgets it.
TEST(AccessRaces, APlainWriteChecksAndForgetsTheOtherThreadsAtomic) {
  Scenario s(Dim3{1, 1, 1}, Dim3{96, 1, 1});
  s.warp(0, 0).atomic(lane(0), kX);
  const SiteId middle = s.warp(0, 2).atomic(lane(0), kX);
  s.warp(0, 1).atomic(lane(0), kX);
  const SiteId store = s.warp(0, 1).store(lane(0), kX);
  const SiteId read = s.warp(0, 1).load(lane(0), kX);
  s.run();
  EXPECT_TRUE(s.race(middle, store));
  EXPECT_FALSE(s.race(middle, read));
}

// A read an atomic raced with stays for later writes: an atomic of another site races with it again,
// one of the same site passes it by (the pair is reported), a plain write races with it.
TEST(AccessRaces, AReadAnAtomicRacedWithStaysForOtherSitesAndPlainWrites) {
  const Dim3 kFourBlocks{4, 1, 1};
  Scenario s(kFourBlocks, kTwoWarps);
  const SiteId read = s.warp(0, 0).load(lane(0), kX);
  const SiteId first = s.warp(1, 0).atomic(lane(0), kX);
  s.warp(2, 0).atomic(lane(0), kX, 4, AccessOptions{.site = first});
  const SiteId other = s.warp(2, 0).atomic(lane(0), kX);
  const SiteId store = s.warp(3, 0).store(lane(0), kX);
  s.run();
  ASSERT_TRUE(s.race(read, first));
  EXPECT_EQ(s.race(read, first)->count, 1u) << "the same site's second atomic passes the read by";
  EXPECT_TRUE(s.race(read, other));
  EXPECT_TRUE(s.race(read, store));
}

// A plain write in the atomic's place still clears the reads: the atomic races with the write, which
// stands for the read (FastTrack).
TEST(AccessRaces, APlainWriteStandsForTheReadsBeforeIt) {
  Scenario s(kTwoBlocks, kTwoWarps);
  const SiteId read = s.warp(0, 0).load(lane(0), kX);
  s.warp(0, 0).barrier();
  s.warp(0, 1).barrier();
  const SiteId write = s.warp(0, 1).store(lane(0), kX);
  const SiteId atomic = s.warp(1, 0).atomic(lane(0), kX);
  s.run();
  EXPECT_TRUE(s.race(write, atomic));
  EXPECT_FALSE(s.race(read, atomic));
}

TEST(AccessRaces, ReadsDoNotRaceAndOneThreadNeverRacesWithItself) {
  Scenario s(kTwoBlocks, kTwoWarps);
  s.warp(0, 0).load(kAllLanes, kX, 0);
  s.warp(1, 0).load(kAllLanes, kX, 0);
  s.warp(0, 1).store(lane(1), kX + 8);
  s.warp(0, 1).load(lane(1), kX + 8);
  s.warp(0, 1).store(lane(1), kX + 8);
  s.run();
  EXPECT_TRUE(s.races().empty());
}

TEST(AccessRaces, BarrierOrdersTheBlockButNotOtherBlocks) {
  Scenario s(kTwoBlocks, kTwoWarps);
  const SiteId w = s.warp(0, 0).store(lane(0), kX);
  s.warp(0, 0).barrier();
  s.warp(0, 1).barrier();
  const SiteId r_same_block = s.warp(0, 1).load(lane(0), kX);
  const SiteId r_other_block = s.warp(1, 0).load(lane(0), kX);
  s.run();
  EXPECT_FALSE(s.race(w, r_same_block));
  EXPECT_TRUE(s.race(w, r_other_block));
}

TEST(AccessRaces, AccessesBeforeTheBarrierCompletesStayUnordered) {
  Scenario s(kTwoBlocks, kTwoWarps);
  const SiteId w = s.warp(0, 0).store(lane(0), kX);
  s.warp(0, 0).barrier();
  const SiteId r = s.warp(0, 1).load(lane(0), kX);  // warp 1 has not reached the barrier yet
  s.warp(0, 1).barrier();
  s.run();
  EXPECT_TRUE(s.race(w, r));
}

TEST(AccessRaces, IndependentLanesOfOneInstructionRace) {
  Scenario s(kTwoBlocks, kTwoWarps);
  const SiteId w = s.warp(0, 0).store(lane(0) | lane(1), kX, 0);
  s.run();
  auto race = s.race(w, w);
  ASSERT_TRUE(race);
  EXPECT_EQ(race->race_class, RaceClass::kIntraWarp);
}

TEST(AccessRaces, SameValueWritesOfOneInstructionAreFiltered) {
  Scenario s(kTwoBlocks, kTwoWarps);
  s.warp(0, 0).store(kAllLanes, kX, 0, {.flags = kFlagSameValue});
  s.run();
  EXPECT_TRUE(s.races().empty());
}

TEST(AccessRaces, IndependentSchedulingNeedsWarpSync) {
  for (bool sync : {false, true}) {
    Scenario s(kTwoBlocks, kTwoWarps);
    const SiteId w = s.warp(0, 0).store(lane(0), kX, 0);
    if (sync) s.warp(0, 0).warp_sync(kAllLanes);
    const SiteId r = s.warp(0, 0).load(lane(1), kX, 0);
    s.run();
    EXPECT_EQ(s.race(w, r).has_value(), !sync) << "sync=" << sync;
  }
}

TEST(AccessRaces, PartialWarpSyncOrdersOnlyItsMembers) {
  Scenario s(kTwoBlocks, kTwoWarps);
  auto warp = s.warp(0, 0);
  const SiteId w = warp.store(lane(0), kX, 0);
  warp.warp_sync(lane(0) | lane(1), lane(0) | lane(1));
  const SiteId r1 = warp.load(lane(1), kX, 0);
  const SiteId r2 = warp.load(lane(2), kX, 0);
  s.run();
  EXPECT_FALSE(s.race(w, r1));
  EXPECT_TRUE(s.race(w, r2));
}

TEST(AccessRaces, LockstepOrdersConsecutiveInstructions) {
  Scenario s(kTwoBlocks, kTwoWarps, WarpModel::kLockstep);
  const SiteId w = s.warp(0, 0).store(lane(0), kX, 0);
  const SiteId r = s.warp(0, 0).load(lane(1), kX, 0);
  const SiteId ww = s.warp(0, 0).store(lane(0) | lane(1), kX + 8, 0);
  s.run();
  EXPECT_FALSE(s.race(w, r));
  ASSERT_TRUE(s.race(ww, ww));
  EXPECT_EQ(s.race(ww, ww)->race_class, RaceClass::kIntraWarp);
}

TEST(AccessRaces, LockstepDivergentPathsRaceUntilReconvergence) {
  Scenario s(kTwoBlocks, kTwoWarps, WarpModel::kLockstep);
  auto warp = s.warp(0, 0);
  warp.branch_if(lane(0), lane(0) | lane(1));
  const SiteId w = warp.store(lane(0), kX, 0);
  warp.branch_else(lane(1));
  const SiteId r = warp.load(lane(1), kX, 0);
  warp.branch_fi(lane(0) | lane(1));
  const SiteId after = warp.load(lane(1), kX, 0);
  s.run();
  auto race = s.race(w, r);
  ASSERT_TRUE(race);
  EXPECT_EQ(race->race_class, RaceClass::kBranchOrdering);
  EXPECT_FALSE(s.race(w, after));
}

TEST(AccessRaces, DisjointBytesOfOneWordDoNotRace) {
  Scenario s(kTwoBlocks, kTwoWarps);
  s.warp(0, 0).store(kAllLanes, kX, 1, {.size_log2 = 0});
  s.warp(1, 0).store(lane(0), kX + 40, 1, {.size_log2 = 0});
  const SiteId half = s.warp(1, 0).store(lane(0), kX + 42, 2, {.size_log2 = 1});
  const SiteId word = s.warp(1, 1).load(lane(0), kX + 40);
  s.run();
  EXPECT_EQ(s.races().size(), 2u);
  ASSERT_TRUE(s.race(half, word));
  EXPECT_EQ(s.race(half, word)->address, kX + 42);
}

TEST(AccessRaces, UnalignedAccessesOverlapByteExactly) {
  Scenario s(kTwoBlocks, kTwoWarps);
  const SiteId a = s.warp(0, 0).store(lane(0), kX + 2);        // bytes 2..5
  const SiteId b = s.warp(1, 0).load(lane(0), kX + 6, 4, {.size_log2 = 1});  // bytes 6..7
  const SiteId c = s.warp(1, 1).load(lane(0), kX + 5, 4, {.size_log2 = 0});  // byte 5
  const SiteId d = s.warp(1, 1).load(lane(0), kX, 4, {.size_log2 = 3});      // bytes 0..7
  s.run();
  EXPECT_FALSE(s.race(a, b));
  EXPECT_TRUE(s.race(a, c));
  EXPECT_TRUE(s.race(a, d));
}

TEST(AccessRaces, SharedMemoryIsPerBlock) {
  Scenario s(kTwoBlocks, kTwoWarps);
  const SiteId a = s.warp(0, 0).store(lane(0), 16, 4, {.space = MemorySpace::kShared});
  const SiteId b = s.warp(1, 0).store(lane(0), 16, 4, {.space = MemorySpace::kShared});
  const SiteId c = s.warp(0, 1).load(lane(0), 16, 4, {.space = MemorySpace::kShared});
  s.run();
  EXPECT_FALSE(s.race(a, b));
  ASSERT_TRUE(s.race(a, c));
  EXPECT_EQ(s.race(a, c)->space, MemorySpace::kShared);
}

TEST(AccessRaces, LocalMemoryIsCountedNeverReported) {
  Scenario s(kTwoBlocks, kTwoWarps);
  s.warp(0, 0).store(kAllLanes, 0, 0, {.space = MemorySpace::kOther});
  s.warp(1, 0).store(kAllLanes, 0, 0, {.space = MemorySpace::kOther});
  s.run();
  EXPECT_TRUE(s.races().empty());
  EXPECT_EQ(s.stats().ignored_accesses, 64u);
  EXPECT_EQ(s.stats().thread_accesses, 0u);
}

TEST(AccessRaces, PerLaneAddressModes) {
  Scenario s(kTwoBlocks, kTwoWarps);
  std::vector<uint64_t> near(32, 0), far(32, 0);
  near[4] = kX + 100;
  far[9] = kX + 100;
  far[10] = 0x7000'0000'0000ull;  // forces 64-bit addresses
  const SiteId a = s.warp(0, 0).access(RecordOp::kStore, lane(4), near);
  const SiteId b = s.warp(1, 1).access(RecordOp::kLoad, lane(9) | lane(10), far);
  s.run();
  auto race = s.race(a, b);
  ASSERT_TRUE(race);
  EXPECT_EQ(race->second_thread, (ThreadCoord{BlockId{1}, 41}));
}

TEST(AccessRaces, WorkersShareGlobalMemory) {
  Scenario s(Dim3{4, 1, 1}, kTwoWarps, WarpModel::kIndependent, 2);
  const SiteId a = s.warp(0, 0).store(kAllLanes, kX);
  const SiteId b = s.warp(3, 1).load(kAllLanes, kX);
  s.run();
  ASSERT_TRUE(s.race(a, b));
  EXPECT_EQ(s.race(a, b)->count, 32u);
}

}  // namespace
}  // namespace barracuda::engine::test
