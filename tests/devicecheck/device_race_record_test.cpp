// The engine's side of a race found on the device (engine/worker_device_race.cpp): a kSharedRace
// record becomes the Race the engine would have logged for the pair; a malformed one is skipped.
#include <gtest/gtest.h>

#include "engine/engine.h"

namespace barracuda::engine {
namespace {

RecordHeader header(RecordOp op, uint16_t warp, uint32_t mask, uint32_t site) {
  RecordHeader h{};
  h.op = static_cast<uint8_t>(op);
  h.active_mask = mask;
  h.site_id = site;
  h.warp_id = warp;
  h.launch_id = 1;
  return h;
}

RecordHeader shared_race(uint16_t warp, uint32_t mask, SharedRacePayload payload) {
  RecordHeader h = header(RecordOp::kSharedRace, warp, mask, 20);
  h.space_sem = pack_space_sem(MemorySpace::kShared, MemorySemantics::kWeak, MemoryScope::kCta);
  h.size_mode = pack_size_mode(3, AddressMode::kAffine);
  h.stride = static_cast<int32_t>(payload.first_site);
  h.base = pack_shared_race_base(payload);
  return h;
}

struct Result {
  std::vector<Race> races;
  EngineStats stats;
};

Result run(const RecordHeader& race) {
  Engine engine(EngineConfig{1});
  engine.begin_launch(LaunchInfo{.launch_id = 1, .kernel = "tiles", .grid = {1, 1, 1}, .block = {64, 1, 1}});
  std::vector<RecordHeader> slots = {header(RecordOp::kWarpEntry, 0, ~0u, 1), header(RecordOp::kWarpEntry, 1, ~0u, 1),
                                     race, header(RecordOp::kWarpExit, 0, ~0u, 2), header(RecordOp::kWarpExit, 1, ~0u, 2)};
  engine.worker(0).consume(slots);
  engine.end_launch();
  return {engine.races(), engine.stats()};
}

TEST(DeviceRaceRecord, BecomesTheRaceTheEngineWouldHaveLogged) {
  const Result result = run(shared_race(1, 1u << 3, {0x48, 5, 10, SharedHazard::kReadAfterWrite, false, 0}));
  ASSERT_EQ(result.races.size(), 1u);
  const Race& race = result.races[0];
  EXPECT_EQ(race.kernel, "tiles");
  EXPECT_EQ(race.race_class, RaceClass::kInterWarp);
  EXPECT_EQ(race.hazard, Hazard::kReadAfterWrite);
  EXPECT_EQ(race.space, MemorySpace::kShared);
  EXPECT_EQ(raw(race.first_site), 10u);
  EXPECT_EQ(raw(race.second_site), 20u);
  EXPECT_EQ(race.first_thread.thread, 5u);
  EXPECT_EQ(race.second_thread.thread, 35u);
  EXPECT_EQ(race.address, 0x48u);
  EXPECT_EQ(race.size, 8u);
  EXPECT_FALSE(race.same_value);
}

TEST(DeviceRaceRecord, TwoThreadsOfOneWarpAreAnIntraWarpRace) {
  const Result result = run(shared_race(0, 1u << 7, {0, 6, 10, SharedHazard::kWriteAfterWrite, false, 0}));
  ASSERT_EQ(result.races.size(), 1u);
  EXPECT_EQ(result.races[0].race_class, RaceClass::kIntraWarp);
}

TEST(DeviceRaceRecord, StoresOfOneValueAreTheSameValueWarning) {
  const Result result = run(shared_race(0, 1u << 7, {0, 6, 20, SharedHazard::kWriteAfterWrite, true, 1}));
  ASSERT_EQ(result.races.size(), 1u);
  EXPECT_TRUE(result.races[0].same_value);
}

TEST(DeviceRaceRecord, AnAtomicPlainRaceKeepsItsHazard) {
  const Result result = run(shared_race(0, 1u << 4, {0x10, 40, 10, SharedHazard::kAtomicPlain, false, 0}));
  ASSERT_EQ(result.races.size(), 1u);
  EXPECT_EQ(result.races[0].hazard, Hazard::kAtomicPlain);
  EXPECT_EQ(result.races[0].race_class, RaceClass::kInterWarp);
}

TEST(DeviceRaceRecord, MalformedOnesAreSkipped) {
  const Result two_lanes = run(shared_race(0, 0x3, {0, 6, 10, SharedHazard::kReadAfterWrite, false, 0}));
  EXPECT_TRUE(two_lanes.races.empty());
  EXPECT_EQ(two_lanes.stats.malformed_records, 1u);
  const Result outside = run(shared_race(0, 0x1, {0, 900, 10, SharedHazard::kReadAfterWrite, false, 0}));
  EXPECT_TRUE(outside.races.empty()) << "thread 900 of a 64-thread block";
  EXPECT_EQ(outside.stats.malformed_records, 1u);
}

}  // namespace
}  // namespace barracuda::engine
