// Barriers for part of a block: named barriers with a thread count (bar.sync id, n), producers that
// only arrive (bar.arrive id, n), and warp syncs whose lanes name different member masks.
#include <gtest/gtest.h>

#include "scenario.h"

namespace barracuda::engine::test {
namespace {

constexpr AccessOptions kShared{.space = MemorySpace::kShared};
const Dim3 kOneBlock{1, 1, 1};

// Warp w's lanes write the shared ints [32w, 32w + 32).
uint64_t row(uint32_t warp) { return warp * kWarpSize * 4; }

TEST(NamedBarrier, OrdersOnlyTheWarpsOfItsGroup) {
  Scenario s(kOneBlock, Dim3{128, 1, 1});
  SiteId writes[4];
  for (uint32_t w = 0; w < 4; ++w) writes[w] = s.warp(0, w).store(kAllLanes, row(w), 4, kShared);
  for (uint32_t w = 0; w < 4; ++w) s.warp(0, w).named_barrier(w < 2 ? 1 : 2, 64);
  const SiteId same_group = s.warp(0, 0).load(kAllLanes, row(1), 4, kShared);
  const SiteId other_group = s.warp(0, 0).load(kAllLanes, row(2), 4, kShared);
  const SiteId partner = s.warp(0, 3).load(kAllLanes, row(2), 4, kShared);
  s.run();
  EXPECT_FALSE(s.race(writes[1], same_group));
  EXPECT_FALSE(s.race(writes[2], partner));
  ASSERT_TRUE(s.race(writes[2], other_group));
  EXPECT_EQ(s.race(writes[2], other_group)->race_class, RaceClass::kInterWarp);
  EXPECT_EQ(s.stats().unsupported_records, 0u);
}

TEST(NamedBarrier, CountOfOneWarpCompletesWithoutTheOther) {
  Scenario s(kOneBlock, Dim3{64, 1, 1});
  const SiteId w = s.warp(0, 0).store(kAllLanes, row(0), 4, kShared);
  s.warp(0, 0).named_barrier(1, 32);
  s.warp(0, 1).named_barrier(1, 32);
  const SiteId r = s.warp(0, 1).load(kAllLanes, row(0), 4, kShared);
  s.run();
  EXPECT_TRUE(s.race(w, r));
}

TEST(NamedBarrier, ArrivingThreadsPublishWhatTheyDidBefore) {
  Scenario s(kOneBlock, Dim3{64, 1, 1});
  const SiteId before = s.warp(0, 0).store(kAllLanes, row(0), 4, kShared);
  s.warp(0, 0).barrier_arrive(1, 64);
  const SiteId after = s.warp(0, 0).store(kAllLanes, row(2), 4, kShared);
  s.warp(0, 1).named_barrier(1, 64);
  const SiteId read_before = s.warp(0, 1).load(kAllLanes, row(0), 4, kShared);
  const SiteId read_after = s.warp(0, 1).load(kAllLanes, row(2), 4, kShared);
  s.run();
  EXPECT_FALSE(s.race(before, read_before));
  EXPECT_TRUE(s.race(after, read_after));
}

TEST(NamedBarrier, ReusedAfterCompletion) {
  Scenario s(kOneBlock, Dim3{96, 1, 1});
  const SiteId w0 = s.warp(0, 0).store(kAllLanes, row(0), 4, kShared);
  s.warp(0, 0).named_barrier(3, 64);
  s.warp(0, 1).named_barrier(3, 64);
  const SiteId w1 = s.warp(0, 1).store(kAllLanes, row(1), 4, kShared);
  s.warp(0, 1).named_barrier(3, 64);
  s.warp(0, 2).named_barrier(3, 64);
  const SiteId r1 = s.warp(0, 2).load(kAllLanes, row(1), 4, kShared);
  const SiteId r0 = s.warp(0, 2).load(kAllLanes, row(0), 4, kShared);
  s.run();
  EXPECT_FALSE(s.race(w1, r1));
  EXPECT_FALSE(s.race(w0, r0));  // transitively: warp 1 learnt warp 0's write at the first round
}

TEST(ClusterBarrier, OrdersTheThreadsOfTheBlock) {
  // cluster.sync() = barrier.cluster.arrive + barrier.cluster.wait; a warp may log its wait before
  // the other warp arrives (records are logged before the instruction runs).
  for (ClusterBarrierPayload arrive : {ClusterBarrierPayload{}, kClusterBarrierRelaxed}) {
    Scenario s(Dim3{2, 1, 1}, Dim3{64, 1, 1});
    s.with_cluster(Dim3{2, 1, 1});
    const SiteId init = s.warp(0, 0).store(lane(0), 0x400, 4, kShared);
    s.warp(0, 0).cluster_barrier(arrive);
    s.warp(0, 0).cluster_barrier(kClusterBarrierWait);
    s.warp(0, 1).cluster_barrier(arrive);
    s.warp(0, 1).cluster_barrier(kClusterBarrierWait);
    const SiteId add = s.warp(0, 1).atomic(kAllLanes, 0x400, 0, kShared);
    const SiteId late = s.warp(0, 0).load(lane(0), 0x400, 0, kShared);
    s.run();
    const bool relaxed = arrive == kClusterBarrierRelaxed;
    EXPECT_EQ(s.race(init, add).has_value(), relaxed) << "relaxed=" << relaxed;
    EXPECT_TRUE(s.race(add, late)) << "no second cluster barrier between the atomics and the read";
  }
}

TEST(ClusterBarrier, WaitWithoutArrivalLearnsNothing) {
  Scenario s(Dim3{2, 1, 1}, Dim3{64, 1, 1});
  s.with_cluster(Dim3{2, 1, 1});
  const SiteId w = s.warp(0, 0).store(lane(0), 0x400, 4, kShared);
  s.warp(0, 1).cluster_barrier(kClusterBarrierWait);
  const SiteId r = s.warp(0, 1).load(lane(0), 0x400, 4, kShared);
  s.run();
  EXPECT_TRUE(s.race(w, r));
}

TEST(ClusterBarrier, SharedAddressesCarryTheBlocksRank) {
  // Block 1 of a 2-block cluster sees its own shared variable at 0x1000400 (rank 1 << 24 | 0x400).
  Scenario s(Dim3{2, 1, 1}, Dim3{64, 1, 1});
  s.with_cluster(Dim3{2, 1, 1});
  const SiteId w = s.warp(1, 0).store(lane(0), 0x1000400, 4, kShared);
  const SiteId r = s.warp(1, 1).load(lane(0), 0x1000400, 4, kShared);
  s.run();
  ASSERT_TRUE(s.race(w, r));
  EXPECT_EQ(s.race(w, r)->race_class, RaceClass::kInterWarp);
  EXPECT_EQ(s.stats().malformed_records, 0u);
}

// Every cluster sees its ranks' shared memory at the same generic addresses (logged that way for
// distributed shared memory: a 4-block launch of 2-block clusters, rank 1 of each storing into rank
// 0's slot): two clusters' stores are to different memory and never race, the same cluster's do.
TEST(ClusterBarrier, DistributedSharedMemoryOfTwoClustersIsNotOneLocation) {
  constexpr uint64_t kLeaderSlot = 0x7f3d00000400;  // a generic address as the H100 gave one
  constexpr AccessOptions kDistributed{.space = MemorySpace::kCluster};
  Scenario s(Dim3{4, 1, 1}, Dim3{32, 1, 1});
  s.with_cluster(Dim3{2, 1, 1});
  const SiteId first = s.warp(1, 0).store(lane(0), kLeaderSlot, 4, kDistributed);
  const SiteId second = s.warp(3, 0).store(lane(0), kLeaderSlot, 4, kDistributed);
  s.run();
  EXPECT_FALSE(s.race(first, second)) << "blocks 1 and 3 are in two clusters";

  Scenario one(Dim3{4, 1, 1}, Dim3{32, 1, 1});
  one.with_cluster(Dim3{4, 1, 1});
  const SiteId a = one.warp(1, 0).store(lane(0), kLeaderSlot, 4, kDistributed);
  const SiteId b = one.warp(3, 0).store(lane(0), kLeaderSlot, 4, kDistributed);
  one.run();
  ASSERT_TRUE(one.race(a, b));
  EXPECT_EQ(one.race(a, b)->address, kLeaderSlot) << "reported at the address the program used";
  EXPECT_EQ(one.race(a, b)->race_class, RaceClass::kInterBlock);
}

TEST(WarpSyncMasks, EachHalfSyncsWithItsOwnMask) {
  // __syncwarp(lane < 16 ? 0x0000ffff : 0xffff0000): the device logs one record per member mask.
  Scenario s(kOneBlock, Dim3{32, 1, 1});
  constexpr uint32_t kLow = 0x0000ffffu, kHigh = 0xffff0000u;
  auto warp = s.warp(0, 0);
  const SiteId w = warp.store(kAllLanes, row(0), 4, kShared);
  warp.warp_sync(kLow, kLow);
  warp.warp_sync(kHigh, kHigh);
  const SiteId in_half = warp.access(RecordOp::kLoad, kLow, {0x20, 0x24, 0x28, 0x2c, 0x30, 0x34, 0x38, 0x3c,
                                                             0x00, 0x04, 0x08, 0x0c, 0x10, 0x14, 0x18, 0x1c}, kShared);
  const SiteId across = warp.load(lane(16), 0x00, 0, kShared);
  s.run();
  EXPECT_FALSE(s.race(w, in_half));
  ASSERT_TRUE(s.race(w, across));
  EXPECT_EQ(s.race(w, across)->race_class, RaceClass::kIntraWarp);
}

}  // namespace
}  // namespace barracuda::engine::test
