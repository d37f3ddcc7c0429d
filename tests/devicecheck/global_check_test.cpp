// The device's global-memory rule (barracuda/global_check.h): stamps, access by access, and on random
// histories of one word against a reference that keeps every read.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "barracuda/global_check.h"

namespace barracuda {
namespace {

constexpr GlobalStampLayout kLayout = global_stamp_layout(1000);
constexpr uint32_t kTag = 7;

GlobalAccess access(bool write, uint32_t block, uint32_t interval, uint32_t thread, uint32_t site) {
  return {{kTag, block, interval, thread}, site, write, thread, false, 0, 0};
}
GlobalAccess load(uint32_t block, uint32_t interval, uint32_t thread, uint32_t site) {
  return access(false, block, interval, thread, site);
}
GlobalAccess store(uint32_t block, uint32_t interval, uint32_t thread, uint32_t site) {
  return access(true, block, interval, thread, site);
}

// Applies the accesses in order and returns the races of the last one.
GlobalCheckOutcome run(std::initializer_list<GlobalAccess> accesses, GlobalShadowWord word = {}) {
  GlobalCheckOutcome outcome{};
  for (const GlobalAccess& a : accesses) {
    outcome = check_global_access(word, a, kLayout);
    word = outcome.next;
  }
  return outcome;
}

TEST(GlobalStamp, PacksTagBlockIntervalAndThread) {
  const GlobalStampLayout layout = global_stamp_layout(1u << 20);
  EXPECT_EQ(layout.interval_bits, kGlobalPlaceBits - 20);
  const GlobalStamp stamp{0xffff, (1u << 20) - 1, layout.max_interval(), 1023};
  const GlobalStamp back = unpack_global_stamp(pack_global_stamp(stamp, layout), layout);
  EXPECT_EQ(back.tag, stamp.tag);
  EXPECT_EQ(back.block, stamp.block);
  EXPECT_EQ(back.interval, stamp.interval);
  EXPECT_EQ(back.thread, stamp.thread);
  // A small grid: every barrier count a thread can hold has its interval (no shift past 31 bits).
  EXPECT_EQ(global_stamp_layout(1).interval_bits, 32u);
  EXPECT_EQ(global_stamp_layout(1).max_interval(), ~0u);
  const GlobalStampLayout small = global_stamp_layout(2);
  const GlobalStamp late{9, 1, 1000000, 3};
  EXPECT_EQ(unpack_global_stamp(pack_global_stamp(late, small), small).interval, 1000000u);
  EXPECT_EQ(unpack_global_stamp(pack_global_stamp(late, small), small).block, 1u);
  EXPECT_TRUE(global_grid_fits(uint64_t{1} << kGlobalMaxBlockBits));
  EXPECT_FALSE(global_grid_fits((uint64_t{1} << kGlobalMaxBlockBits) + 1));
  EXPECT_FALSE(global_grid_fits(0));
}

TEST(GlobalStamp, AKeptSiteIsTakenOnlyForTheStampItWasWrittenWith) {
  const uint64_t a = pack_global_stamp({kTag, 3, 0, 5}, kLayout);
  const uint64_t b = pack_global_stamp({kTag, 4, 0, 5}, kLayout);
  EXPECT_EQ(kept_global_site(pack_global_site(1234, a), a), 1234u);
  EXPECT_EQ(kept_global_site(pack_global_site(1234, a), b), kGlobalUnknownSite);
}

TEST(GlobalCheck, TwoBlocksRaceWhateverTheirIntervals) {
  const GlobalCheckOutcome out = run({store(0, 0, 3, 10), load(1, 5, 3, 11)});
  ASSERT_EQ(out.race_count, 1u);
  EXPECT_EQ(out.races[0].hazard, Hazard::kReadAfterWrite);
  EXPECT_EQ(out.races[0].first_site, 10u);
  EXPECT_EQ(unpack_global_stamp(out.races[0].first, kLayout).block, 0u);
}

TEST(GlobalCheck, ABarrierOrdersTheThreadsOfOneBlockOnly) {
  EXPECT_EQ(run({store(2, 0, 1, 10), load(2, 1, 7, 11)}).race_count, 0u);
  EXPECT_EQ(run({store(2, 1, 1, 10), load(2, 1, 7, 11)}).race_count, 1u);
  EXPECT_EQ(run({load(2, 0, 1, 10), store(2, 1, 7, 11)}).race_count, 0u);
  EXPECT_EQ(run({load(2, 0, 1, 10), store(3, 0, 7, 11)}).race_count, 1u);
}

TEST(GlobalCheck, AThreadNeverRacesWithItself) {
  EXPECT_EQ(run({store(2, 0, 1, 10), load(2, 0, 1, 11), store(2, 0, 1, 12)}).race_count, 0u);
}

TEST(GlobalCheck, AnotherLaunchsShadowSaysNothing) {
  GlobalShadowWord old{};
  GlobalAccess earlier = store(0, 0, 0, 10);
  earlier.stamp.tag = kTag - 1;
  old = check_global_access(old, earlier, kLayout).next;
  EXPECT_EQ(run({load(1, 0, 0, 11)}, old).race_count, 0u);
}

TEST(GlobalCheck, UniformStoresOfOneValueAreMarkedSameValue) {
  GlobalAccess first = store(0, 0, 0, 10), second = store(1, 0, 0, 11);
  first.uniform = second.uniform = true;
  first.value = second.value = 1;
  GlobalCheckOutcome out = run({first, second});
  ASSERT_EQ(out.race_count, 1u);
  EXPECT_TRUE(out.races[0].same_value);
  second.value = 2;
  out = run({first, second});
  ASSERT_EQ(out.race_count, 1u);
  EXPECT_FALSE(out.races[0].same_value);
}

TEST(GlobalCheck, LanesOfOneSameValueStoreDoNotRaceWithEachOther) {
  GlobalAccess low = store(0, 0, 0, 10), high = store(0, 0, 5, 10);
  high.same_instruction_lanes = 0x1f;  // lanes 0-4 applied before lane 5
  EXPECT_EQ(run({low, high}).race_count, 0u);
  high.same_instruction_lanes = 0;
  EXPECT_EQ(run({low, high}).race_count, 1u);
}

TEST(GlobalCheck, SaturatedIntervalsOfOneBlockAreNotCompared) {
  const uint32_t top = kLayout.max_interval();
  EXPECT_EQ(run({store(0, top, 0, 10), load(0, top, 1, 11)}).race_count, 0u);
  EXPECT_EQ(run({store(0, top, 0, 10), load(1, top, 1, 11)}).race_count, 1u);
}

// Random histories of one word: a few blocks of a few threads, each block moving through its barrier
// intervals in time. The rule must report a race for an access exactly when the reference (every read
// since the last write kept) has one, every race it names must be one, and a write-write or
// read-after-write must name the last write.
struct Reference {
  bool has_write = false;
  GlobalStamp write{};
  std::vector<GlobalStamp> reads;
};

bool concurrent(const GlobalStamp& a, const GlobalStamp& b) {
  if (a.block != b.block) return true;
  return a.interval == b.interval && a.thread != b.thread;
}

TEST(GlobalCheck, TwoReaderEntriesFindARaceWheneverAnyReadRaces) {
  std::mt19937_64 random(20261126);
  for (int history = 0; history < 20000; ++history) {
    const uint32_t blocks = 1 + random() % 4, threads = 1 + random() % 4;
    std::vector<uint32_t> interval(blocks, 0);
    GlobalShadowWord word{};
    Reference reference;
    for (int step = 0; step < 40; ++step) {
      const uint32_t block = random() % blocks;
      if (random() % 4 == 0) ++interval[block];
      const GlobalAccess a = access(random() % 3 == 0, block, interval[block], random() % threads, step);
      const GlobalCheckOutcome out = check_global_access(word, a, kLayout);
      word = out.next;
      bool expect_write_race = reference.has_write && concurrent(reference.write, a.stamp);
      bool expect_read_race = false;
      if (a.write) {
        for (const GlobalStamp& read : reference.reads) expect_read_race |= concurrent(read, a.stamp);
      }
      bool saw_write_race = false, saw_read_race = false;
      for (uint32_t r = 0; r < out.race_count; ++r) {
        const GlobalStamp first = unpack_global_stamp(out.races[r].first, kLayout);
        ASSERT_TRUE(concurrent(first, a.stamp)) << "history " << history << " step " << step;
        if (out.races[r].hazard == Hazard::kWriteAfterRead) {
          saw_read_race = true;
        } else {
          saw_write_race = true;
          EXPECT_EQ(first.block, reference.write.block);
          EXPECT_EQ(first.thread, reference.write.thread);
        }
      }
      ASSERT_EQ(saw_write_race, expect_write_race) << "history " << history << " step " << step;
      ASSERT_EQ(saw_read_race, expect_read_race) << "history " << history << " step " << step;
      if (a.write) {
        reference = {true, a.stamp, {}};
      } else {
        reference.reads.push_back(a.stamp);
      }
    }
  }
}

// A warp's lanes reading one word at once leave the shadow their lane-by-lane application in lane
// order leaves (as SharedCheck's test of the same name), entries and sites alike.
TEST(GlobalCheck, ReadLanesLeaveWhatTheirLaneByLaneApplicationLeaves) {
  std::mt19937_64 random(20261128);
  for (int history = 0; history < 50000; ++history) {
    const uint32_t blocks = 1 + random() % 3;
    const uint32_t warp_base = kWarpSize * (random() % 3);
    const uint32_t interval = 2;
    GlobalShadowWord word{};
    for (int step = random() % 6; step > 0; --step) {
      const uint32_t block = random() % blocks;
      const GlobalAccess earlier = access(random() % 4 == 0, block, interval - random() % 3,
                                          static_cast<uint32_t>(random() % (3 * kWarpSize)), random() % 4);
      word = check_global_access(word, earlier, kLayout).next;
    }
    uint32_t lanes = static_cast<uint32_t>(random());
    if (random() % 2) lanes &= static_cast<uint32_t>(random());
    if (lanes == 0) lanes = 1u << (random() % kWarpSize);
    const GlobalAccess read = load(random() % blocks, interval, warp_base + lowest_lane(lanes), random() % 4);
    GlobalShadowWord expected = word;
    for (uint64_t m = lanes; m != 0; m &= m - 1) {
      GlobalAccess lane_read = read;
      lane_read.stamp.thread = lane_read.last_writer_thread = warp_base + lowest_lane(static_cast<uint32_t>(m));
      expected = check_global_access(expected, lane_read, kLayout).next;
    }
    const GlobalShadowWord together = apply_global_read_lanes(word, read, lanes, warp_base, kLayout);
    ASSERT_EQ(together.write, expected.write) << "history " << history;
    for (uint32_t r = 0; r < 2; ++r) {
      ASSERT_EQ(together.readers[r], expected.readers[r]) << "history " << history;
      ASSERT_EQ(together.reader_sites[r], expected.reader_sites[r]) << "history " << history;
    }
    ASSERT_EQ(together.value, expected.value) << "history " << history;
  }
}

}  // namespace
}  // namespace barracuda
