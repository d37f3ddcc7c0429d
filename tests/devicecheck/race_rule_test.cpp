// The naming rule the host engine and the device checks share (barracuda/race_rule.h); nvcc compiles
// the same header into the device runtime (device/runtime.cu through shared_check.h).
#include "barracuda/race_rule.h"

#include <gtest/gtest.h>

#include "barracuda/record.h"

namespace barracuda {
namespace {

TEST(RaceRule, HazardsAreNamedFromTheEarlierAccessToTheLaterOne) {
  EXPECT_EQ(hazard_between(true, false, false, false), Hazard::kReadAfterWrite);
  EXPECT_EQ(hazard_between(false, false, true, false), Hazard::kWriteAfterRead);
  EXPECT_EQ(hazard_between(true, false, true, false), Hazard::kWriteAfterWrite);
  // An atomic meeting a plain access is atomic-plain whichever of them wrote.
  for (const bool earlier_write : {false, true}) {
    for (const bool later_write : {false, true}) {
      EXPECT_EQ(hazard_between(earlier_write, true, later_write, false), Hazard::kAtomicPlain);
      EXPECT_EQ(hazard_between(earlier_write, false, later_write, true), Hazard::kAtomicPlain);
    }
  }
  // Two atomics (both writes) name a write-write; whether they race is the caller's rule.
  EXPECT_EQ(hazard_between(true, true, true, true), Hazard::kWriteAfterWrite);
}

TEST(RaceRule, ARaceRecordCarriesTheSidesOfAnAtomicPlainRaceOnly) {
  // A plain read, then an atomic: the atomic came second and the plain access did not write.
  EXPECT_EQ(race_record_flags(Hazard::kAtomicPlain, AccessOp::kRead, AccessOp::kAtomic), 0);
  EXPECT_EQ(race_record_flags(Hazard::kAtomicPlain, AccessOp::kAtomic, AccessOp::kRead), kFlagRaceAtomicFirst);
  EXPECT_EQ(race_record_flags(Hazard::kAtomicPlain, AccessOp::kWrite, AccessOp::kAtomic), kFlagRacePlainWrite);
  EXPECT_EQ(race_record_flags(Hazard::kAtomicPlain, AccessOp::kAtomic, AccessOp::kWrite),
            kFlagRaceAtomicFirst | kFlagRacePlainWrite);
  // Other hazards name both accesses already: their records carry no sides.
  EXPECT_EQ(race_record_flags(Hazard::kWriteAfterWrite, AccessOp::kWrite, AccessOp::kWrite), 0);
  EXPECT_EQ(race_record_flags(Hazard::kReadAfterWrite, AccessOp::kWrite, AccessOp::kRead), 0);
}

TEST(RaceRule, TheClassFollowsFromTheTwoThreads) {
  EXPECT_EQ(race_class_between(3, 5, 4, 5), RaceClass::kInterBlock);
  EXPECT_EQ(race_class_between(3, 5, 3, 31), RaceClass::kIntraWarp);
  EXPECT_EQ(race_class_between(3, 31, 3, 32), RaceClass::kInterWarp);
  EXPECT_EQ(race_class_between(0, 64, 0, 95), RaceClass::kIntraWarp);
  // The device's race filter keys and the host's classes share these numbers.
  static_assert(static_cast<int>(RaceClass::kIntraWarp) == 0 && static_cast<int>(RaceClass::kInterWarp) == 1 &&
                static_cast<int>(RaceClass::kInterBlock) == 2);
}

TEST(RaceRule, AScopeCoversTheThreadsOfItsBlockClusterOrGpu) {
  EXPECT_TRUE(scope_covers(MemoryScope::kCta, 4, 1, 4, 1));
  EXPECT_FALSE(scope_covers(MemoryScope::kCta, 4, 1, 5, 1));
  EXPECT_TRUE(scope_covers(MemoryScope::kCluster, 4, 1, 5, 1));
  EXPECT_FALSE(scope_covers(MemoryScope::kCluster, 4, 1, 8, 2));
  for (const MemoryScope wide : {MemoryScope::kGpu, MemoryScope::kSystem}) {
    EXPECT_TRUE(scope_covers(wide, 4, 1, 8, 2));
  }
}

}  // namespace
}  // namespace barracuda
