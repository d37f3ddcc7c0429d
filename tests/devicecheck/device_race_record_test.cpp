// The engine's side of a race found on the device (engine/worker_device_race.cpp): a kSharedRace or
// kGlobalRace record becomes the Race the engine would have logged for the pair; a malformed one is
// skipped.
#include <gtest/gtest.h>

#include <array>
#include <cstring>

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

// A kGlobalRace record of block `block` and its payload slots (record_ops.inc).
std::vector<RecordHeader> global_race(uint32_t block, uint16_t warp, uint32_t mask, uint64_t address,
                                      GlobalRacePayload payload) {
  RecordHeader h = header(RecordOp::kGlobalRace, warp, mask, 20);
  h.block_id = block;
  h.space_sem = pack_space_sem(MemorySpace::kGlobal, MemorySemantics::kWeak, MemoryScope::kCta);
  h.size_mode = pack_size_mode(2, AddressMode::kDelta32);
  h.base = address;
  std::array<uint32_t, kWarpSize> words{};
  words[kGlobalRaceFirstBlock] = payload.first_block;
  words[kGlobalRaceFirstThread] = payload.first_thread;
  words[kGlobalRaceFirstSite] = payload.first_site;
  words[kGlobalRaceHazard] = static_cast<uint32_t>(payload.hazard) | uint32_t{payload.same_value} << 2;
  words[kGlobalRaceValue] = payload.value;
  std::vector<RecordHeader> slots(record_slots(AddressMode::kDelta32));
  slots[0] = h;
  std::memcpy(&slots[1], words.data(), sizeof words);
  return slots;
}

struct Result {
  std::vector<Race> races;
  EngineStats stats;
};

// The race records between the warps' lifetime records of a one-block (or, for global races, the
// racing block's) launch of four blocks of 64 threads.
Result run(std::vector<RecordHeader> race, uint32_t block = 0) {
  Engine engine(EngineConfig{1});
  engine.begin_launch(LaunchInfo{.launch_id = 1, .kernel = "tiles", .grid = {4, 1, 1}, .block = {64, 1, 1}});
  std::vector<RecordHeader> slots = {header(RecordOp::kWarpEntry, 0, ~0u, 1), header(RecordOp::kWarpEntry, 1, ~0u, 1)};
  slots.insert(slots.end(), race.begin(), race.end());
  slots.push_back(header(RecordOp::kWarpExit, 0, ~0u, 2));
  slots.push_back(header(RecordOp::kWarpExit, 1, ~0u, 2));
  for (RecordHeader& slot : slots) {
    if (slot.op == static_cast<uint8_t>(RecordOp::kWarpEntry) || slot.op == static_cast<uint8_t>(RecordOp::kWarpExit)) {
      slot.block_id = block;
    }
  }
  engine.worker(0).consume(slots);
  engine.end_launch();
  return {engine.races(), engine.stats()};
}
Result run(const RecordHeader& race) { return run(std::vector<RecordHeader>{race}); }

TEST(DeviceRaceRecord, BecomesTheRaceTheEngineWouldHaveLogged) {
  const Result result = run(shared_race(1, 1u << 3, {0x48, 5, 10, Hazard::kReadAfterWrite, false, 0}));
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
  const Result result = run(shared_race(0, 1u << 7, {0, 6, 10, Hazard::kWriteAfterWrite, false, 0}));
  ASSERT_EQ(result.races.size(), 1u);
  EXPECT_EQ(result.races[0].race_class, RaceClass::kIntraWarp);
}

TEST(DeviceRaceRecord, StoresOfOneValueAreTheSameValueWarning) {
  const Result result = run(shared_race(0, 1u << 7, {0, 6, 20, Hazard::kWriteAfterWrite, true, 1}));
  ASSERT_EQ(result.races.size(), 1u);
  EXPECT_TRUE(result.races[0].same_value);
}

TEST(DeviceRaceRecord, AnAtomicPlainRaceKeepsItsHazard) {
  const Result result = run(shared_race(0, 1u << 4, {0x10, 40, 10, Hazard::kAtomicPlain, false, 0}));
  ASSERT_EQ(result.races.size(), 1u);
  EXPECT_EQ(result.races[0].hazard, Hazard::kAtomicPlain);
  EXPECT_EQ(result.races[0].race_class, RaceClass::kInterWarp);
}

// Which access was the atomic, and what the plain one did, come in the header's flags.
TEST(DeviceRaceRecord, AnAtomicPlainRaceKeepsItsSides) {
  for (const AtomicPlainSides sides : {AtomicPlainSides{false, false}, AtomicPlainSides{true, true},
                                       AtomicPlainSides{true, false}, AtomicPlainSides{false, true}}) {
    RecordHeader h = shared_race(0, 1u << 4, {0x10, 40, 10, Hazard::kAtomicPlain, false, 0, {}});
    h.flags = pack_atomic_plain_sides(sides);
    const Result result = run(h);
    ASSERT_EQ(result.races.size(), 1u);
    EXPECT_EQ(result.races[0].sides.atomic_first, sides.atomic_first);
    EXPECT_EQ(result.races[0].sides.plain_write, sides.plain_write);
  }
}

TEST(DeviceRaceRecord, MalformedOnesAreSkipped) {
  const Result two_lanes = run(shared_race(0, 0x3, {0, 6, 10, Hazard::kReadAfterWrite, false, 0}));
  EXPECT_TRUE(two_lanes.races.empty());
  EXPECT_EQ(two_lanes.stats.malformed_records, 1u);
  const Result outside = run(shared_race(0, 0x1, {0, 900, 10, Hazard::kReadAfterWrite, false, 0}));
  EXPECT_TRUE(outside.races.empty()) << "thread 900 of a 64-thread block";
  EXPECT_EQ(outside.stats.malformed_records, 1u);
}

TEST(DeviceGlobalRaceRecord, BecomesTheRaceTheEngineWouldHaveLogged) {
  const Result result =
      run(global_race(2, 1, 1u << 3, 0x7f0000000040, {0, 5, 10, Hazard::kWriteAfterRead, false, 0}), 2);
  ASSERT_EQ(result.races.size(), 1u);
  const Race& race = result.races[0];
  EXPECT_EQ(race.race_class, RaceClass::kInterBlock);
  EXPECT_EQ(race.hazard, Hazard::kWriteAfterRead);
  EXPECT_EQ(race.space, MemorySpace::kGlobal);
  EXPECT_EQ(raw(race.first_site), 10u);
  EXPECT_EQ(raw(race.second_site), 20u);
  EXPECT_EQ(raw(race.first_thread.block), 0u);
  EXPECT_EQ(race.first_thread.thread, 5u);
  EXPECT_EQ(raw(race.second_thread.block), 2u);
  EXPECT_EQ(race.second_thread.thread, 35u);
  EXPECT_EQ(race.address, 0x7f0000000040u);
  EXPECT_EQ(race.size, 4u);
  EXPECT_EQ(result.stats.malformed_records, 0u);
}

TEST(DeviceGlobalRaceRecord, OneBlocksThreadsRaceWithinOrAcrossWarps) {
  const Result intra = run(global_race(1, 0, 1u << 7, 0x1000, {1, 6, 10, Hazard::kReadAfterWrite, false, 0}), 1);
  ASSERT_EQ(intra.races.size(), 1u);
  EXPECT_EQ(intra.races[0].race_class, RaceClass::kIntraWarp);
  const Result inter = run(global_race(1, 1, 1u << 7, 0x1000, {1, 6, 10, Hazard::kReadAfterWrite, false, 0}), 1);
  ASSERT_EQ(inter.races.size(), 1u);
  EXPECT_EQ(inter.races[0].race_class, RaceClass::kInterWarp);
}

TEST(DeviceGlobalRaceRecord, StoresOfOneValueAreTheSameValueWarning) {
  const Result result =
      run(global_race(0, 0, 1u << 7, 0x1000, {3, 6, 20, Hazard::kWriteAfterWrite, true, 1}));
  ASSERT_EQ(result.races.size(), 1u);
  EXPECT_TRUE(result.races[0].same_value);
}

// Warps of block 0 stored the block's number (0) alike, block 1 stored 1: the device sends one
// same-value pair and one pair of different values of the same store site. The second stays a race:
// the site is not taken for constant from the one pair the device sent.
TEST(DeviceGlobalRaceRecord, ADifferentValuePairOfASameValueSiteStaysARace) {
  std::vector<RecordHeader> records = global_race(0, 1, 1u << 0, 0x1000, {0, 0, 20, Hazard::kWriteAfterWrite, true, 0});
  const std::vector<RecordHeader> across = global_race(0, 0, 1u << 5, 0x1000, {1, 0, 20, Hazard::kWriteAfterWrite, false, 0});
  records.insert(records.end(), across.begin(), across.end());
  const Result result = run(records);
  ASSERT_EQ(result.races.size(), 2u);
  for (const Race& race : result.races) {
    EXPECT_EQ(race.same_value, race.race_class == RaceClass::kInterWarp) << static_cast<int>(race.race_class);
  }
}

// Two warps both read a bin and stored 1 (hist[bin]++): the device finds the stores of one value, but a
// read that raced with the store (RAW) makes the write-write a race, as on the host (engine.cpp).
TEST(DeviceRaceRecord, ASameValuePairWhoseStoreARacingReadObservedIsARace) {
  const Result result = run(std::vector<RecordHeader>{
      shared_race(1, 1u << 0, {0x48, 0, 20, Hazard::kWriteAfterWrite, true, 1}),
      [] {
        RecordHeader read = shared_race(1, 1u << 0, {0x48, 0, 20, Hazard::kReadAfterWrite, false, 0});
        read.site_id = 30;
        return read;
      }()});
  ASSERT_EQ(result.races.size(), 2u);
  for (const Race& race : result.races) EXPECT_FALSE(race.same_value) << static_cast<int>(race.hazard);
}

// Two pairs of one entry (sites, class, hazard), one of one value and one of two: a race.
TEST(DeviceRaceRecord, AnEntryIsTheSameValueWarningOnlyIfEveryPairWas) {
  const Result result = run(std::vector<RecordHeader>{
      shared_race(1, 1u << 3, {0x48, 5, 20, Hazard::kWriteAfterWrite, true, 1}),
      shared_race(1, 1u << 4, {0x48, 6, 20, Hazard::kWriteAfterWrite, false, 0})});
  ASSERT_EQ(result.races.size(), 1u);
  EXPECT_FALSE(result.races[0].same_value);
}

TEST(DeviceGlobalRaceRecord, MalformedOnesAreSkipped) {
  const Result two_lanes = run(global_race(0, 0, 0x3, 0x1000, {1, 6, 10, Hazard::kReadAfterWrite, false, 0}));
  EXPECT_TRUE(two_lanes.races.empty());
  EXPECT_EQ(two_lanes.stats.malformed_records, 1u);
  const Result block = run(global_race(0, 0, 0x1, 0x1000, {9, 6, 10, Hazard::kReadAfterWrite, false, 0}));
  EXPECT_TRUE(block.races.empty()) << "block 9 of a 4-block grid";
  EXPECT_EQ(block.stats.malformed_records, 1u);
  const Result thread = run(global_race(0, 0, 0x1, 0x1000, {1, 900, 10, Hazard::kReadAfterWrite, false, 0}));
  EXPECT_TRUE(thread.races.empty()) << "thread 900 of a 64-thread block";
  EXPECT_EQ(thread.stats.malformed_records, 1u);
  // Without its payload the record cannot even be framed as one.
  std::vector<RecordHeader> short_race = global_race(0, 0, 0x1, 0x1000, {1, 6, 10, Hazard::kReadAfterWrite, false, 0});
  short_race[0].size_mode = pack_size_mode(2, AddressMode::kAffine);
  short_race.resize(1);
  const Result unframed = run(short_race);
  EXPECT_TRUE(unframed.races.empty());
  EXPECT_GE(unframed.stats.malformed_records, 1u);
}

}  // namespace
}  // namespace barracuda::engine
