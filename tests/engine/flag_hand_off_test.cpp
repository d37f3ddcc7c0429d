// A flag that hands data over without fences (FlagHandOff): message passing through a relaxed,
// volatile or atomic flag with no fence on either side orders nothing in the PTX model, so the data
// race stays a race, and the race names the flag's write and read: the sites `barracuda harden`
// puts a fence before and after.
#include <gtest/gtest.h>

#include "scenario.h"

namespace barracuda::engine::test {
namespace {

constexpr uint64_t kData = 0x20000;
constexpr uint64_t kFlag = 0x30000;
constexpr uint64_t kCounter = 0x30100;
const Dim3 kTwoBlocks{2, 1, 1};
const Dim3 kTwoWarps{64, 1, 1};

const AccessOptions kRelaxedAccess{.sem = MemorySemantics::kRelaxed, .scope = MemoryScope::kGpu};
const AccessOptions kVolatileAccess{.sem = MemorySemantics::kVolatile};
const AccessOptions kVolatileSpin{.sem = MemorySemantics::kVolatile, .flags = kFlagSpinRead};
const AccessOptions kLegacyAtomic{.sem = MemorySemantics::kLegacy, .scope = MemoryScope::kGpu};

struct Sites {
  SiteId data_write, flag_write, flag_read, data_read;
};

enum class FlagKind { kRelaxed, kVolatile, kAtomic };

// Block 0 writes the data and then the flag; block 1 reads the flag and then the data.
Sites message_passing(Scenario& s, FlagKind kind) {
  Sites sites{};
  sites.data_write = s.warp(0, 0).store(lane(0), kData);
  switch (kind) {
    case FlagKind::kRelaxed:
      sites.flag_write = s.warp(0, 0).store(lane(0), kFlag, 4, kRelaxedAccess);
      sites.flag_read = s.warp(1, 0).load(lane(0), kFlag, 4, kRelaxedAccess);
      break;
    case FlagKind::kVolatile:
      sites.flag_write = s.warp(0, 0).store(lane(0), kFlag, 4, kVolatileAccess);
      sites.flag_read = s.warp(1, 0).load(lane(0), kFlag, 4, kVolatileSpin);
      break;
    case FlagKind::kAtomic:  // atomicExch(&flag, 1), then while (atomicAdd(&flag, 0) == 0);
      sites.flag_write = s.warp(0, 0).atomic(lane(0), kFlag, 4, kLegacyAtomic);
      sites.flag_read = s.warp(1, 0).atomic(lane(0), kFlag, 4, kLegacyAtomic);
      break;
  }
  sites.data_read = s.warp(1, 0).load(lane(0), kData);
  return sites;
}

// The race between `a` and `b` names the flag written at `flag_write` and read at `flag_read`.
void expect_flag(const std::optional<Race>& race, SiteId flag_write, SiteId flag_read) {
  ASSERT_TRUE(race);
  ASSERT_TRUE(race->flag.valid);
  EXPECT_EQ(race->flag.write_site, flag_write);
  EXPECT_EQ(race->flag.read_site, flag_read);
  EXPECT_EQ(race->flag.address, kFlag);
}

TEST(FlagHandOff, EachKindOfUnfencedFlagIsNamedOnTheDataRace) {
  for (FlagKind kind : {FlagKind::kRelaxed, FlagKind::kVolatile, FlagKind::kAtomic}) {
    Scenario s(kTwoBlocks, kTwoWarps);
    const Sites sites = message_passing(s, kind);
    s.run();
    const auto race = s.race(sites.data_write, sites.data_read);
    ASSERT_TRUE(race) << "kind " << int(kind);
    EXPECT_EQ(race->race_class, RaceClass::kInterBlock) << "still a race";
    EXPECT_FALSE(race->unfenced_acquire);
    ASSERT_TRUE(race->flag.valid) << "kind " << int(kind);
    EXPECT_EQ(race->flag.write_site, sites.flag_write);
    EXPECT_EQ(race->flag.read_site, sites.flag_read);
    EXPECT_EQ(race->flag.address, kFlag);
    EXPECT_FALSE(s.race(sites.flag_write, sites.flag_read)) << "the flag itself does not race";
  }
}

TEST(FlagHandOff, FencesOnBothSidesOrderThePair) {
  Scenario s(kTwoBlocks, kTwoWarps);
  const SiteId data_write = s.warp(0, 0).store(lane(0), kData);
  s.warp(0, 0).fence(MemorySemantics::kAcqRel, MemoryScope::kGpu, lane(0));
  s.warp(0, 0).store(lane(0), kFlag, 4, kRelaxedAccess);
  s.warp(1, 0).load(lane(0), kFlag, 4, kRelaxedAccess);
  s.warp(1, 0).fence(MemorySemantics::kAcqRel, MemoryScope::kGpu, lane(0));
  const SiteId data_read = s.warp(1, 0).load(lane(0), kData);
  s.run();
  EXPECT_FALSE(s.race(data_write, data_read));
  EXPECT_TRUE(s.races().empty());
}

// A flag set by a thread other than the data's writer hands nothing over.
TEST(FlagHandOff, AFlagOfAnotherThreadIsNotNamed) {
  Scenario s(Dim3{3, 1, 1}, kTwoWarps);
  const SiteId data_write = s.warp(0, 0).store(lane(0), kData);
  s.warp(2, 0).store(lane(0), kFlag, 4, kRelaxedAccess);
  s.warp(1, 0).load(lane(0), kFlag, 4, kRelaxedAccess);
  const SiteId data_read = s.warp(1, 0).load(lane(0), kData);
  s.run();
  const auto race = s.race(data_write, data_read);
  ASSERT_TRUE(race);
  EXPECT_FALSE(race->flag.valid);
}

// One thread spins on the flag, a barrier hands that on to the block, and another warp reads the data;
// without the barrier that warp is not ordered after the spin, and the flag is not its hand-off.
TEST(FlagHandOff, ABarrierAfterTheSpinHandsTheFlagToTheBlock) {
  for (bool barrier : {true, false}) {
    Scenario s(kTwoBlocks, kTwoWarps);
    const SiteId data_write = s.warp(0, 0).store(lane(0), kData);
    const SiteId flag_write = s.warp(0, 0).store(lane(0), kFlag, 4, kVolatileAccess);
    const SiteId flag_read = s.warp(1, 0).load(lane(0), kFlag, 4, kVolatileSpin);
    if (barrier) {
      s.warp(1, 0).barrier();
      s.warp(1, 1).barrier();
    }
    const SiteId data_read = s.warp(1, 1).load(lane(5), kData, 0);
    s.run();
    const auto race = s.race(data_write, data_read);
    ASSERT_TRUE(race) << "barrier=" << barrier;
    if (barrier) {
      expect_flag(s.race(data_write, data_read), flag_write, flag_read);
    } else {
      EXPECT_FALSE(race->flag.valid);
    }
  }
}

// A counter bumped between the flag read and the data read does not push the flag out: a thread's
// latest load and latest atomic that saw a flag are kept apart, and the flag written first after the
// data wins.
TEST(FlagHandOff, AnAtomicBetweenFlagAndDataKeepsTheFlag) {
  Scenario s(kTwoBlocks, kTwoWarps);
  const SiteId data_write = s.warp(0, 0).store(lane(0), kData);
  const SiteId flag_write = s.warp(0, 0).store(lane(0), kFlag, 4, kRelaxedAccess);
  s.warp(0, 0).atomic(lane(0), kCounter, 4, kLegacyAtomic);
  const SiteId flag_read = s.warp(1, 0).load(lane(0), kFlag, 4, kRelaxedAccess);
  s.warp(1, 0).atomic(lane(0), kCounter, 4, kLegacyAtomic);
  const SiteId data_read = s.warp(1, 0).load(lane(0), kData);
  s.run();
  expect_flag(s.race(data_write, data_read), flag_write, flag_read);
}

// Within one block the flag is named too (the fences it needs are block-scoped).
TEST(FlagHandOff, WarpsOfOneBlock) {
  Scenario s(Dim3{1, 1, 1}, kTwoWarps);
  const SiteId data_write = s.warp(0, 0).store(lane(0), kData);
  const SiteId flag_write = s.warp(0, 0).store(lane(0), kFlag, 4, kRelaxedAccess);
  const SiteId flag_read = s.warp(0, 1).load(lane(0), kFlag, 4, kRelaxedAccess);
  const SiteId data_read = s.warp(0, 1).load(lane(0), kData);
  s.run();
  const auto race = s.race(data_write, data_read);
  ASSERT_TRUE(race);
  EXPECT_EQ(race->race_class, RaceClass::kInterWarp);
  expect_flag(race, flag_write, flag_read);
}

// A spin lock with no fences (while (atomicCAS(&lock, 0, 1) != 0); data += 1; atomicExch(&lock, 0);):
// the critical sections race, and the lock is the flag: a fence before the unlock's atomicExch and one
// after the next holder's atomicCAS (Sorensen and Donaldson's fix).
TEST(FlagHandOff, ALockWithoutFencesIsTheFlag) {
  Scenario s(kTwoBlocks, kTwoWarps);
  s.warp(0, 0).atomic(lane(0), kFlag, 4, kLegacyAtomic);  // lock
  s.warp(0, 0).load(lane(0), kData);
  const SiteId first_write = s.warp(0, 0).store(lane(0), kData);
  const SiteId unlock = s.warp(0, 0).atomic(lane(0), kFlag, 4, kLegacyAtomic);
  const SiteId lock = s.warp(1, 0).atomic(lane(0), kFlag, 4, kLegacyAtomic);
  const SiteId second_read = s.warp(1, 0).load(lane(0), kData);
  s.warp(1, 0).store(lane(0), kData);
  s.warp(1, 0).atomic(lane(0), kFlag, 4, kLegacyAtomic);  // unlock
  s.run();
  expect_flag(s.race(first_write, second_read), unlock, lock);
}

// Kernels without fences give their flags no sync ticket: the engine may check the reader's records
// first. The flag's write, checked after the read, names the flag at the end of the launch: here the
// reader's block is drained first, by another worker.
TEST(FlagHandOff, AFlagWriteCheckedAfterItsReadIsNamedAtTheEndOfTheLaunch) {
  Scenario s(kTwoBlocks, kTwoWarps, WarpModel::kIndependent, /*workers=*/2);
  const SiteId flag_read = s.warp(0, 0).load(lane(0), kFlag, 4, kVolatileSpin);
  const SiteId data_read = s.warp(0, 0).load(lane(0), kData);
  const SiteId data_write = s.warp(1, 0).store(lane(0), kData);
  const SiteId flag_write = s.warp(1, 0).store(lane(0), kFlag, 4, kVolatileAccess);
  s.run();
  const auto race = s.race(data_read, data_write);
  ASSERT_TRUE(race);
  EXPECT_EQ(race->hazard, Hazard::kWriteAfterRead);
  expect_flag(race, flag_write, flag_read);
}

// The same with an atomic flag (atomicExch(&flag, 1) / while (atomicAdd(&flag, 0) == 0);): the spin's
// last atomic, checked first, meets the flag's write as an atomic that read.
TEST(FlagHandOff, AnAtomicFlagWriteCheckedAfterItsReadIsNamedAtTheEndOfTheLaunch) {
  Scenario s(kTwoBlocks, kTwoWarps, WarpModel::kIndependent, /*workers=*/2);
  s.warp(0, 0).atomic(lane(0), kFlag, 4, kLegacyAtomic);
  const SiteId flag_read = s.warp(0, 0).atomic(lane(0), kFlag, 4, kLegacyAtomic);
  const SiteId data_read = s.warp(0, 0).load(lane(0), kData);
  const SiteId data_write = s.warp(1, 0).store(lane(0), kData);
  const SiteId flag_write = s.warp(1, 0).atomic(lane(0), kFlag, 4, kLegacyAtomic);
  s.run();
  expect_flag(s.race(data_read, data_write), flag_write, flag_read);
}

// A reduction (red, which reads nothing) hands nothing over: a counter bumped with atomicAdd whose
// result is unused is not a flag whoever bumped it first.
TEST(FlagHandOff, AReductionIsNoFlagsRead) {
  Scenario s(kTwoBlocks, kTwoWarps, WarpModel::kIndependent, /*workers=*/2);
  s.warp(0, 0).reduction(lane(0), kCounter, 4, kLegacyAtomic);
  const SiteId data_read = s.warp(0, 0).load(lane(0), kData);
  const SiteId data_write = s.warp(1, 0).store(lane(0), kData);
  s.warp(1, 0).atomic(lane(0), kCounter, 4, kLegacyAtomic);
  s.run();
  const auto race = s.race(data_read, data_write);
  ASSERT_TRUE(race);
  EXPECT_FALSE(race->flag.valid);
}

// The data written, then the flag read, then the flag written, then the data read (as the engine saw
// them): the race is found at the data read, the flag at the end of the launch.
TEST(FlagHandOff, AFlagWriteCheckedBetweenTheRacingAccesses) {
  Scenario s(kTwoBlocks, kTwoWarps);
  const SiteId data_write = s.warp(0, 0).store(lane(0), kData);
  const SiteId flag_read = s.warp(1, 0).load(lane(0), kFlag, 4, kRelaxedAccess);
  const SiteId flag_write = s.warp(0, 0).store(lane(0), kFlag, 4, kRelaxedAccess);
  const SiteId data_read = s.warp(1, 0).load(lane(0), kData);
  s.run();
  expect_flag(s.race(data_write, data_read), flag_write, flag_read);
}

// A volatile flag read once races with its write (volatile is not atomic); that race is on the flag
// itself, which hands nothing over to it, in either order.
TEST(FlagHandOff, TheFlagsOwnRaceIsNotHandedOverByIt) {
  for (bool write_first : {true, false}) {
    Scenario s(kTwoBlocks, kTwoWarps);
    SiteId flag_write{}, flag_read{};
    if (write_first) flag_write = s.warp(0, 0).store(lane(0), kFlag, 4, kVolatileAccess);
    flag_read = s.warp(1, 0).load(lane(0), kFlag, 4, kVolatileAccess);
    if (!write_first) flag_write = s.warp(0, 0).store(lane(0), kFlag, 4, kVolatileAccess);
    s.run();
    const auto race = s.race(flag_write, flag_read);
    ASSERT_TRUE(race) << "write_first=" << write_first;
    EXPECT_FALSE(race->flag.valid) << "write_first=" << write_first;
  }
}

}  // namespace
}  // namespace barracuda::engine::test
