// Atomics, strong operations, scopes, release/acquire and fence inference, and the
// synchronisation idioms of the BARRACUDA paper (message passing, locks, flags, grid barrier).
#include <gtest/gtest.h>

#include <vector>

#include "scenario.h"

namespace barracuda::engine::test {
namespace {

constexpr uint64_t kData = 0x20000;
constexpr uint64_t kFlag = 0x30000;
const Dim3 kTwoBlocks{2, 1, 1};
const Dim3 kTwoWarps{64, 1, 1};
constexpr AccessOptions kRelaxedSys{.sem = MemorySemantics::kRelaxed, .scope = MemoryScope::kSystem};
constexpr AccessOptions kVolatile{.sem = MemorySemantics::kVolatile, .scope = MemoryScope::kSystem};
// The volatile load of a spin (while (*flag == 0);), as the instrumentation marks it (kFlagSpinRead).
constexpr AccessOptions kSpin{.sem = MemorySemantics::kVolatile, .scope = MemoryScope::kSystem, .flags = kFlagSpinRead};
constexpr AccessOptions kReleaseGpu{.sem = MemorySemantics::kRelease, .scope = MemoryScope::kGpu};
constexpr AccessOptions kAcquireGpu{.sem = MemorySemantics::kAcquire, .scope = MemoryScope::kGpu};

TEST(SyncRaces, AtomicsNeitherRaceNorSynchronise) {
  Scenario s(kTwoBlocks, kTwoWarps);
  const SiteId data_write = s.warp(0, 0).store(lane(0), kData);
  const SiteId a1 = s.warp(0, 0).atomic(kAllLanes, kFlag, 0);
  const SiteId a2 = s.warp(1, 0).atomic(kAllLanes, kFlag, 0);
  const SiteId r = s.warp(1, 0).reduction(lane(2), kFlag, 0);
  const SiteId data_read = s.warp(1, 0).load(lane(0), kData);
  s.run();
  EXPECT_FALSE(s.race(a1, a2));
  EXPECT_FALSE(s.race(a1, r));
  EXPECT_TRUE(s.race(data_write, data_read));
}

TEST(SyncRaces, AtomicVersusPlainAccessIsARace) {
  Scenario s(kTwoBlocks, kTwoWarps);
  const SiteId a = s.warp(0, 0).atomic(lane(0), kFlag);
  const SiteId p = s.warp(1, 0).load(lane(0), kFlag);
  s.run();
  ASSERT_TRUE(s.race(a, p));
  EXPECT_EQ(s.race(a, p)->hazard, Hazard::kAtomicPlain);
}

TEST(SyncRaces, RelaxedAccessesAndVolatileReadsAreMorallyStrong) {
  Scenario s(kTwoBlocks, kTwoWarps);
  s.warp(0, 0).store(lane(0), kFlag, 4, kRelaxedSys);
  s.warp(1, 0).load(lane(0), kFlag, 4, kRelaxedSys);
  s.warp(1, 1).load(lane(0), kFlag, 4, kVolatile);
  s.warp(0, 1).atomic(lane(0), kFlag);
  s.run();
  EXPECT_TRUE(s.races().empty());
}

// volatile is not atomic: a volatile write that completes no fence's release pattern is an ordinary
// write to the race rule (BRIEF section 4).
TEST(SyncRaces, AVolatileWriteRacesWithAnAtomicOfAnotherWarp) {
  Scenario s(Dim3{1, 1, 1}, kTwoWarps);
  const SiteId exchange = s.warp(0, 0).atomic(lane(0), kData);
  const SiteId store = s.warp(0, 1).store(lane(0), kData, 4, kVolatile);
  s.run();
  ASSERT_TRUE(s.race(exchange, store));
  EXPECT_EQ(s.race(exchange, store)->hazard, Hazard::kAtomicPlain);
}

TEST(SyncRaces, TwoUnorderedVolatileWritesRace) {
  Scenario s(kTwoBlocks, kTwoWarps);
  const SiteId a = s.warp(0, 0).store(lane(0), kData, 4, kVolatile);
  const SiteId b = s.warp(1, 0).store(lane(0), kData, 4, kVolatile);
  s.run();
  ASSERT_TRUE(s.race(a, b));
  EXPECT_EQ(s.race(a, b)->race_class, RaceClass::kInterBlock);
}

// Block 0 takes a CAS spin-lock with fences and writes volatile data inside it; block 1 writes the
// same word without taking the lock: a race. With the lock taken by both, none.
TEST(SyncRaces, VolatileDataOutsideTheLockRacesAndInsideItDoesNot) {
  for (bool both_lock : {false, true}) {
    Scenario s(kTwoBlocks, kTwoWarps);
    std::vector<SiteId> writes;
    for (uint32_t b = 0; b < 2; ++b) {
      auto w = s.warp(b, 0);
      const bool locks = b == 0 || both_lock;
      if (locks) {
        w.atomic(lane(0), kFlag);  // atomicCAS(&lock, 0, 1) succeeded
        w.fence(MemorySemantics::kLegacy, MemoryScope::kGpu, lane(0));
      }
      writes.push_back(w.store(lane(0), kData, 4, kVolatile));
      if (locks) {
        w.fence(MemorySemantics::kLegacy, MemoryScope::kGpu, lane(0));
        w.atomic(lane(0), kFlag);  // atomicExch(&lock, 0)
      }
    }
    s.run();
    EXPECT_EQ(s.race(writes[0], writes[1]).has_value(), !both_lock) << "both_lock=" << both_lock;
  }
}

// data (volatile) = 1; __threadfence(); atomicExch(&flag, 1) / spin on atomicExch(&flag, 0), then
// __threadfence() and read data: ordered. With __threadfence_block() as the release fence between
// blocks: a scoped race on the volatile data.
TEST(SyncRaces, VolatileDataHandOffIsOrderedOnlyByAFenceOfWideEnoughScope) {
  for (MemoryScope release : {MemoryScope::kGpu, MemoryScope::kCta}) {
    Scenario s(kTwoBlocks, kTwoWarps);
    const SiteId w = s.warp(0, 0).store(lane(0), kData, 4, kVolatile);
    s.warp(0, 0).fence(MemorySemantics::kLegacy, release, lane(0));
    s.warp(0, 0).atomic(lane(0), kFlag);
    s.warp(1, 0).atomic(lane(0), kFlag);
    s.warp(1, 0).fence(MemorySemantics::kLegacy, MemoryScope::kGpu, lane(0));
    const SiteId r = s.warp(1, 0).load(lane(0), kData, 4, kVolatile);
    s.run();
    if (release == MemoryScope::kGpu) {
      EXPECT_TRUE(s.races().empty()) << s.races().size();
    } else {
      ASSERT_TRUE(s.race(w, r));
      EXPECT_EQ(s.race(w, r)->race_class, RaceClass::kScoped);
    }
  }
}

TEST(SyncRaces, CtaScopedAtomicsAcrossBlocksAreScopedRaces) {
  Scenario s(kTwoBlocks, kTwoWarps);
  const AccessOptions cta{.scope = MemoryScope::kCta};
  const SiteId a = s.warp(0, 0).atomic(lane(0), kFlag, 4, cta);
  const SiteId b = s.warp(0, 1).atomic(lane(0), kFlag, 4, cta);  // same block: fine
  const SiteId c = s.warp(1, 0).atomic(lane(0), kFlag, 4, cta);
  s.run();
  EXPECT_FALSE(s.race(a, b));
  ASSERT_TRUE(s.race(b, c));
  EXPECT_EQ(s.race(b, c)->race_class, RaceClass::kScoped);
}

TEST(SyncRaces, ClusterScopeCoversBlocksOfOneClusterOnly) {
  Scenario s(Dim3{4, 1, 1}, kTwoWarps, WarpModel::kIndependent);
  s.with_cluster(Dim3{2, 1, 1});
  const AccessOptions cluster{.scope = MemoryScope::kCluster};
  const SiteId a = s.warp(0, 0).atomic(lane(0), kFlag, 4, cluster);
  const SiteId b = s.warp(1, 0).atomic(lane(0), kFlag, 4, cluster);
  const SiteId c = s.warp(2, 0).atomic(lane(0), kFlag, 4, cluster);
  s.run();
  EXPECT_FALSE(s.race(a, b));
  ASSERT_TRUE(s.race(b, c));
  EXPECT_EQ(s.race(b, c)->race_class, RaceClass::kScoped);
}

// Message passing with release/acquire qualifiers (what cuda::atomic_ref compiles to).
TEST(SyncRaces, MessagePassingWithReleaseAcquire) {
  for (bool acquire : {true, false}) {
    Scenario s(kTwoBlocks, kTwoWarps);
    const SiteId w = s.warp(0, 0).store(lane(0), kData);
    s.warp(0, 0).store(lane(0), kFlag, 4, kReleaseGpu);
    s.warp(1, 0).load(lane(0), kFlag, 4, acquire ? kAcquireGpu : kRelaxedSys);
    const SiteId r = s.warp(1, 0).load(lane(0), kData);
    s.run();
    EXPECT_EQ(s.race(w, r).has_value(), !acquire) << "acquire=" << acquire;
    EXPECT_EQ(s.races().size(), acquire ? 0u : 1u);
  }
}

// The BARRACUDA paper's message-passing idiom (reconstructed): __threadfence() + volatile flag.
TEST(SyncRaces, LegacyMessagePassingWithFences) {
  for (bool fences : {true, false}) {
    Scenario s(kTwoBlocks, kTwoWarps);
    const SiteId w = s.warp(0, 0).store(lane(0), kData);
    if (fences) s.warp(0, 0).fence(MemorySemantics::kLegacy, MemoryScope::kGpu, lane(0));
    s.warp(0, 0).store(lane(0), kFlag, 4, kVolatile);
    s.warp(1, 0).load(lane(0), kFlag, 4, kSpin);
    if (fences) s.warp(1, 0).fence(MemorySemantics::kLegacy, MemoryScope::kGpu, lane(0));
    const SiteId r = s.warp(1, 0).load(lane(0), kData);
    s.run();
    EXPECT_EQ(s.race(w, r).has_value(), !fences) << "fences=" << fences;
  }
}

// __threadfence_block() message passing: fine between warps of one block; between blocks the
// scope is too narrow, and the race says so.
TEST(SyncRaces, BlockScopedFencesOrderOnlyTheirBlock) {
  for (uint32_t reader_block : {0u, 1u}) {
    Scenario s(kTwoBlocks, kTwoWarps);
    const SiteId w = s.warp(0, 0).store(lane(0), kData);
    s.warp(0, 0).fence(MemorySemantics::kLegacy, MemoryScope::kCta, lane(0));
    s.warp(0, 0).store(lane(0), kFlag, 4, kVolatile);
    auto reader = s.warp(reader_block, 1);
    reader.load(lane(0), kFlag, 4, kSpin);
    reader.fence(MemorySemantics::kLegacy, MemoryScope::kCta, lane(0));
    const SiteId r = reader.load(lane(0), kData);
    s.run();
    if (reader_block == 0) {
      EXPECT_FALSE(s.race(w, r));
    } else {
      ASSERT_TRUE(s.race(w, r));
      EXPECT_EQ(s.race(w, r)->race_class, RaceClass::kScoped);
    }
  }
}

// Fences need not sit right next to the flag access (PTX: a release fence anywhere before the strong
// write, an acquire fence anywhere after the strong read). A block fence between a device fence and
// the flag neither narrows the release nor uses up the acquire: what `barracuda harden` adds to a
// program that already has __threadfence_block() at both ends (e2e_harden_fences_block_message_passing).
TEST(SyncRaces, ADeviceFenceOrdersAcrossBlocksWithABlockFenceBetweenItAndTheFlag) {
  for (bool device_fences : {true, false}) {
    Scenario s(kTwoBlocks, kTwoWarps);
    const SiteId w = s.warp(0, 0).store(lane(0), kData);
    if (device_fences) s.warp(0, 0).fence(MemorySemantics::kAcqRel, MemoryScope::kGpu, lane(0));
    s.warp(0, 0).fence(MemorySemantics::kLegacy, MemoryScope::kCta, lane(0));
    s.warp(0, 0).atomic(lane(0), kFlag, 4, {.sem = MemorySemantics::kLegacy, .scope = MemoryScope::kGpu});
    s.warp(1, 0).atomic(lane(0), kFlag, 4, {.sem = MemorySemantics::kLegacy, .scope = MemoryScope::kGpu});
    s.warp(1, 0).fence(MemorySemantics::kLegacy, MemoryScope::kCta, lane(0));
    if (device_fences) s.warp(1, 0).fence(MemorySemantics::kAcqRel, MemoryScope::kGpu, lane(0));
    const SiteId r = s.warp(1, 0).load(lane(0), kData);
    s.run();
    if (device_fences) {
      EXPECT_FALSE(s.race(w, r));
      EXPECT_TRUE(s.races().empty());
    } else {
      ASSERT_TRUE(s.race(w, r));
      EXPECT_EQ(s.race(w, r)->race_class, RaceClass::kScoped);
    }
  }
}

// Only the fence's own place matters, not its order with the other: the device fence first on the
// reader's side and last on the writer's side orders the same.
TEST(SyncRaces, ADeviceFenceOrdersAcrossBlocksWhicheverSideOfTheBlockFenceItIs) {
  Scenario s(kTwoBlocks, kTwoWarps);
  const SiteId w = s.warp(0, 0).store(lane(0), kData);
  s.warp(0, 0).fence(MemorySemantics::kLegacy, MemoryScope::kCta, lane(0));
  s.warp(0, 0).fence(MemorySemantics::kAcqRel, MemoryScope::kGpu, lane(0));
  s.warp(0, 0).atomic(lane(0), kFlag, 4, {.sem = MemorySemantics::kLegacy, .scope = MemoryScope::kGpu});
  s.warp(1, 0).atomic(lane(0), kFlag, 4, {.sem = MemorySemantics::kLegacy, .scope = MemoryScope::kGpu});
  s.warp(1, 0).fence(MemorySemantics::kAcqRel, MemoryScope::kGpu, lane(0));
  s.warp(1, 0).fence(MemorySemantics::kLegacy, MemoryScope::kCta, lane(0));
  const SiteId r = s.warp(1, 0).load(lane(0), kData);
  s.run();
  EXPECT_FALSE(s.race(w, r));
}

// The paper's lock idiom (reconstructed): atomicCAS + fence ... fence + atomicExch around a counter.
TEST(SyncRaces, SpinLockProtectsCriticalSection) {
  for (bool fences : {true, false}) {
    Scenario s(Dim3{3, 1, 1}, kTwoWarps);
    std::vector<std::pair<SiteId, SiteId>> sections;
    for (uint32_t b = 0; b < 3; ++b) {
      auto w = s.warp(b, 0);
      w.atomic(lane(0), kFlag);  // atomicCAS(lock, 0, 1) succeeded
      if (fences) w.fence(MemorySemantics::kLegacy, MemoryScope::kGpu, lane(0));
      const SiteId r = w.load(lane(0), kData);
      const SiteId wr = w.store(lane(0), kData);
      if (fences) w.fence(MemorySemantics::kLegacy, MemoryScope::kGpu, lane(0));
      w.atomic(lane(0), kFlag);  // atomicExch(lock, 0)
      sections.emplace_back(r, wr);
    }
    s.run();
    EXPECT_EQ(s.races().empty(), fences) << "fences=" << fences;
    if (!fences) {
      EXPECT_TRUE(s.race(sections[0].second, sections[1].first));
    }
  }
}

// A grid barrier as cooperative groups inline it: block barrier, one thread fences and bumps a
// counter, spins on it with volatile loads and a fence, block barrier; then data of other blocks
// may be read.
TEST(SyncRaces, GridBarrierOrdersEveryBlock) {
  Scenario s(kTwoBlocks, kTwoWarps);
  std::vector<SiteId> writes, reads;
  for (uint32_t b = 0; b < 2; ++b) {
    writes.push_back(s.warp(b, 1).store(kAllLanes, kData + b * 128));
    s.warp(b, 0).barrier();
    s.warp(b, 1).barrier();
    s.warp(b, 0).fence(MemorySemantics::kLegacy, MemoryScope::kGpu, lane(0));
    s.warp(b, 0).atomic(lane(0), kFlag);
  }
  for (uint32_t b = 0; b < 2; ++b) {
    s.warp(b, 0).load(lane(0), kFlag, 4, kSpin);
    s.warp(b, 0).fence(MemorySemantics::kLegacy, MemoryScope::kGpu, lane(0));
    s.warp(b, 0).barrier();
    s.warp(b, 1).barrier();
    reads.push_back(s.warp(b, 1).load(kAllLanes, kData + (1 - b) * 128));
  }
  s.run();
  EXPECT_TRUE(s.races().empty()) << s.races().size();
}

// The CUDA programming guide's __threadfence() example: each block writes its result, fences and
// bumps a counter; the block that sees the last count reads every result after __syncthreads().
TEST(SyncRaces, ThreadFenceReductionLastBlock) {
  Scenario s(Dim3{3, 1, 1}, kTwoWarps);
  for (uint32_t b = 0; b < 3; ++b) {
    s.warp(b, 0).store(lane(0), kData + b * 4);
    s.warp(b, 0).fence(MemorySemantics::kLegacy, MemoryScope::kGpu, lane(0));
    s.warp(b, 0).atomic(lane(0), kFlag);  // atomicInc(&count)
    s.warp(b, 0).barrier();
    s.warp(b, 1).barrier();
  }
  s.warp(2, 1).load(lane(0), kData, 0, {.size_log2 = 3});  // the last block reads results 0 and 1
  s.warp(2, 1).load(lane(1), kData + 8, 0);
  s.run();
  EXPECT_TRUE(s.races().empty()) << s.races().size();
}

TEST(SyncRaces, AcquireReleaseAtomicsChainLockHolders) {
  Scenario s(Dim3{3, 1, 1}, kTwoWarps);
  const AccessOptions acq_rel{.sem = MemorySemantics::kAcqRel, .scope = MemoryScope::kGpu};
  const SiteId w0 = s.warp(0, 0).store(lane(0), kData);
  s.warp(0, 0).atomic(lane(0), kFlag, 4, acq_rel);
  s.warp(1, 0).atomic(lane(0), kFlag, 4, acq_rel);
  s.warp(1, 0).store(lane(0), kData + 4);
  s.warp(1, 0).atomic(lane(0), kFlag, 4, acq_rel);
  s.warp(2, 0).atomic(lane(0), kFlag, 4, acq_rel);
  const SiteId r = s.warp(2, 0).load(lane(0), kData, 4, {.size_log2 = 3});
  s.run();
  EXPECT_FALSE(s.race(w0, r));
  EXPECT_TRUE(s.races().empty());
}

TEST(SyncRaces, WarpLevelBarrierKnowledgeTravelsThroughRelease) {
  // Block 0: every warp writes, barrier, lane 0 releases; block 1 acquires and reads it all.
  Scenario s(kTwoBlocks, kTwoWarps);
  s.warp(0, 0).store(kAllLanes, kData);
  s.warp(0, 1).store(kAllLanes, kData + 128);
  s.warp(0, 0).barrier();
  s.warp(0, 1).barrier();
  s.warp(0, 0).store(lane(0), kFlag, 4, kReleaseGpu);
  s.warp(1, 0).load(lane(0), kFlag, 4, kAcquireGpu);
  s.warp(1, 0).load(lane(0), kData + 128 + 31 * 4);
  s.run();
  EXPECT_TRUE(s.races().empty());
}

TEST(SyncRaces, BulkCopyIsPublishedByItsMbarrier) {
  // cp.async.bulk by thread 0 (16-byte chunks, then its release to the mbarrier), warp 1 reads the
  // tile once before waiting on the mbarrier and once after.
  Scenario s(Dim3{1, 1, 1}, kTwoWarps);
  constexpr uint64_t kMbarrier = 0x800;
  const AccessOptions chunk{.space = MemorySpace::kShared, .size_log2 = 4};
  const AccessOptions shared{.space = MemorySpace::kShared};
  SiteId copy{};
  for (uint64_t offset = 0; offset < 64; offset += 16) copy = s.warp(0, 0).access(RecordOp::kAsyncCopy, lane(0), {offset}, chunk);
  s.warp(0, 0).mbarrier(RecordOp::kMbarrierArrive, kMbarrier, lane(0));
  const SiteId early = s.warp(0, 1).load(lane(0), 48, 4, shared);
  s.warp(0, 1).mbarrier(RecordOp::kMbarrierWait, kMbarrier);
  const SiteId late = s.warp(0, 1).load(kAllLanes, 52, 0, shared);
  s.run();
  ASSERT_TRUE(s.race(copy, early));
  EXPECT_EQ(s.race(copy, early)->race_class, RaceClass::kInterWarp);
  EXPECT_FALSE(s.race(copy, late));
}

TEST(SyncRaces, MbarriersOfTwoBlocksAtOneOffsetAreDistinct) {
  // Each block has its own mbarrier at shared offset 0x800: block 1's wait learns nothing of block
  // 0's arrival, so their global accesses race as inter-block (not as a scoped race).
  Scenario s(kTwoBlocks, kTwoWarps);
  const SiteId w = s.warp(0, 0).store(lane(0), kData);
  s.warp(0, 0).mbarrier(RecordOp::kMbarrierArrive, 0x800, lane(0));
  s.warp(1, 0).mbarrier(RecordOp::kMbarrierWait, 0x800, lane(0));
  const SiteId r = s.warp(1, 0).load(lane(0), kData);
  s.run();
  ASSERT_TRUE(s.race(w, r));
  EXPECT_EQ(s.race(w, r)->race_class, RaceClass::kInterBlock);
}

}  // namespace
}  // namespace barracuda::engine::test
