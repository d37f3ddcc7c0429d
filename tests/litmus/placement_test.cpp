// Randomised placement keeps each test's threads in the placement's block/warp relation.
#include "placement.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace litmus {
namespace {

struct Thread {
  int block, warp;
};

void check_relation(LitmusTest test, Placement p, const Geometry& g, const Assignment& a) {
  std::map<int, std::map<int, Thread>> roles;  // instance -> role -> thread
  for (int t = 0; t < g.threads(); ++t) {
    int32_t r = a.role_of_thread[t];
    if (r == kIdle) continue;
    ASSERT_LT(r / 4, a.instances);
    ASSERT_TRUE(roles[r / 4].emplace(r % 4, Thread{t / g.threads_per_block, t / kLanes}).second) << "role taken twice";
  }
  ASSERT_EQ(static_cast<int>(roles.size()), a.instances);
  for (auto& [instance, threads] : roles) {
    ASSERT_EQ(static_cast<int>(threads.size()), thread_count(test));
    std::set<int> blocks, warps;
    for (auto& [role, th] : threads) {
      blocks.insert(th.block);
      warps.insert(th.warp);
    }
    int n = thread_count(test);
    switch (p) {
      case Placement::kIntraWarp: EXPECT_EQ(warps.size(), 1u); break;
      case Placement::kIntraBlock: EXPECT_EQ(blocks.size(), 1u); EXPECT_EQ(static_cast<int>(warps.size()), n); break;
      case Placement::kInterBlock: EXPECT_EQ(static_cast<int>(blocks.size()), n); break;
    }
  }
  std::set<uint32_t> slots(a.location_slot.begin(), a.location_slot.end());
  EXPECT_EQ(slots.size(), a.location_slot.size()) << "two locations share a slot";
}

TEST(LitmusPlacement, EveryTestAndPlacementKeepsItsRelation) {
  Geometry g{16, 256};
  std::mt19937 rng(7);
  for (LitmusTest t : kAllTests) {
    for (Placement p : kAllPlacements) {
      Assignment a = assign_roles(t, p, g, rng);
      EXPECT_GT(a.instances, g.threads() / (4 * thread_count(t))) << "too few instances placed";
      check_relation(t, p, g, a);
    }
  }
}

TEST(LitmusPlacement, FixedRolesPlaceOneInstanceInTheDetectorGeometry) {
  Geometry g{4, 4 * kLanes};
  for (LitmusTest t : kAllTests) {
    for (Placement p : kAllPlacements) {
      Assignment a = fixed_roles(t, p, g);
      EXPECT_EQ(a.instances, 1);
      check_relation(t, p, g, a);
      EXPECT_EQ(a.role_of_thread, fixed_roles(t, p, g).role_of_thread) << "not deterministic";
    }
  }
  Assignment inter = fixed_roles(LitmusTest::kIRIW, Placement::kInterBlock, g);
  EXPECT_EQ(inter.role_of_thread[3 * g.threads_per_block], 3);
}

TEST(LitmusPlacement, DifferentLaunchesUseDifferentThreads) {
  Geometry g{8, 128};
  std::mt19937 rng(1);
  Assignment first = assign_roles(LitmusTest::kMP, Placement::kInterBlock, g, rng);
  Assignment second = assign_roles(LitmusTest::kMP, Placement::kInterBlock, g, rng);
  EXPECT_NE(first.role_of_thread, second.role_of_thread);
}

}  // namespace
}  // namespace litmus
