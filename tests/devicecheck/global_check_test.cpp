// The device's global-memory rule (barracuda/global_check.h): stamps, access by access, and on random
// histories of one word against a reference that keeps every read.
#include <gtest/gtest.h>

#include <algorithm>
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

GlobalAccess atomic(uint32_t block, uint32_t interval, uint32_t thread, uint32_t site) {
  GlobalAccess a = access(true, block, interval, thread, site);
  a.stamp.strong = true;
  return a;
}
GlobalAccess relaxed_load(uint32_t block, uint32_t interval, uint32_t thread, uint32_t site) {
  GlobalAccess a = load(block, interval, thread, site);
  a.stamp.strong = true;
  return a;
}

// Applies the accesses in order and returns the races of the last one.
GlobalCheckOutcome run(std::initializer_list<GlobalAccess> accesses, GlobalShadowWord word = {},
                       GlobalStampLayout layout = kLayout) {
  GlobalCheckOutcome outcome{};
  for (const GlobalAccess& a : accesses) {
    outcome = check_global_access(word, a, layout);
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

// The one race the last of `accesses` forms, which must be of `hazard`.
GlobalRace only_race(std::initializer_list<GlobalAccess> accesses, Hazard hazard) {
  const GlobalCheckOutcome out = run(accesses);
  EXPECT_EQ(out.race_count, 1u);
  EXPECT_EQ(out.races[0].hazard, hazard);
  return out.races[0];
}

TEST(GlobalCheck, AtomicsNeverRaceWithEachOtherAndRaceWithPlainAccessesAsAtomicPlain) {
  EXPECT_EQ(run({atomic(0, 0, 1, 10), atomic(1, 0, 2, 11)}).race_count, 0u);
  only_race({store(0, 0, 1, 10), atomic(1, 0, 2, 11)}, Hazard::kAtomicPlain);
  only_race({atomic(0, 0, 1, 10), load(1, 0, 2, 11)}, Hazard::kAtomicPlain);
  EXPECT_EQ(only_race({load(0, 0, 1, 10), atomic(1, 0, 2, 11)}, Hazard::kAtomicPlain).first_site, 10u);
  // A barrier orders an atomic with the plain accesses of its block.
  EXPECT_EQ(run({store(0, 0, 1, 10), atomic(0, 1, 2, 11)}).race_count, 0u);
}

TEST(GlobalCheck, AtomicsKeepTheReadsAndThePlainWriteBeforeThem) {
  // Lane 0 stores, a barrier, then every thread of the block adds: ordered. Another block's add races
  // with the store, not with the adds.
  EXPECT_EQ(only_race({store(0, 0, 0, 10), atomic(0, 1, 1, 11), atomic(0, 1, 2, 11), atomic(1, 0, 3, 11)},
                      Hazard::kAtomicPlain)
                .first_site,
            10u);
  // A read before the atomics still races with another block's atomic after them.
  EXPECT_EQ(only_race({load(0, 0, 5, 12), atomic(0, 0, 6, 11), atomic(1, 0, 3, 11)}, Hazard::kAtomicPlain).first_site,
            12u);
  // A plain write forgets them.
  EXPECT_EQ(run({store(0, 0, 0, 10), atomic(0, 1, 1, 11), store(0, 2, 4, 13), atomic(0, 3, 3, 11)}).race_count, 0u);
}

TEST(GlobalCheck, RelaxedLoadsRaceWithPlainWritesOnly) {
  EXPECT_EQ(run({atomic(0, 0, 1, 10), relaxed_load(1, 0, 2, 11)}).race_count, 0u);
  EXPECT_EQ(run({relaxed_load(1, 0, 2, 11), atomic(0, 0, 1, 10)}).race_count, 0u);
  only_race({relaxed_load(1, 0, 2, 11), store(0, 0, 1, 10)}, Hazard::kWriteAfterRead);
  only_race({store(0, 0, 1, 10), relaxed_load(1, 0, 2, 11)}, Hazard::kReadAfterWrite);
}

TEST(GlobalCheck, SaturatedIntervalsOfOneBlockAreNotCompared) {
  const uint32_t top = kLayout.max_interval();
  EXPECT_EQ(run({store(0, top, 0, 10), load(0, top, 1, 11)}).race_count, 0u);
  EXPECT_EQ(run({store(0, top, 0, 10), load(1, top, 1, 11)}).race_count, 1u);
}

constexpr GlobalStampLayout kGridLayout = global_stamp_layout(1000, true);

TEST(GlobalStamp, AGridSyncLayoutSplitsTheIntervalIntoGridSyncsAndBarriersSinceTheLast) {
  EXPECT_EQ(kGridLayout.interval_bits, kLayout.interval_bits);
  EXPECT_EQ(kGridLayout.grid_bits, kGlobalMaxGridBits) << "27 bits of interval: 16 of grid syncs, 11 of barriers";
  EXPECT_EQ(global_stamp_layout(1, true).grid_bits, kGlobalMaxGridBits);
  EXPECT_EQ(global_stamp_layout(1u << 13, true).grid_bits, 14u) << "a large cooperative grid: 10 bits of barriers";
  EXPECT_EQ(global_stamp_layout(1u << 20, true).grid_bits, 8u) << "short of 20 bits: half each";
  EXPECT_EQ(kLayout.grid_bits, 0u);
  const uint32_t interval = kGridLayout.interval_of(5, 3);
  EXPECT_EQ(kGridLayout.grid_of(interval), 5u);
  EXPECT_EQ(kGridLayout.barriers_of(interval), 3u);
  EXPECT_EQ(kGridLayout.grid_of(kGridLayout.interval_of(~0u, ~0u)), kGridLayout.max_grid()) << "held at the largest";
  EXPECT_EQ(kGridLayout.barriers_of(kGridLayout.interval_of(~0u, ~0u)), kGridLayout.max_barriers());
  EXPECT_EQ(kLayout.interval_of(0, 9), 9u) << "without grid syncs, barriers alone";
  EXPECT_EQ(unpack_global_stamp_layout(pack_global_stamp_layout(kGridLayout)).grid_bits, kGridLayout.grid_bits);
  EXPECT_EQ(unpack_global_stamp_layout(pack_global_stamp_layout(kGridLayout)).interval_bits, kGridLayout.interval_bits);
}

GlobalCheckOutcome run_with_grid_syncs(std::initializer_list<GlobalAccess> accesses) {
  return run(accesses, {}, kGridLayout);
}

TEST(GlobalCheck, AGridSyncOrdersTheBlocksItSeparates) {
  const uint32_t first = kGridLayout.interval_of(0, 2), second = kGridLayout.interval_of(1, 0);
  EXPECT_EQ(run_with_grid_syncs({store(0, first, 0, 10), load(1, second, 5, 11)}).race_count, 0u);
  EXPECT_EQ(run_with_grid_syncs({load(0, first, 0, 10), store(1, second, 5, 11)}).race_count, 0u);
  EXPECT_EQ(run_with_grid_syncs({store(0, second, 0, 10), load(1, second, 5, 11)}).race_count, 1u)
      << "two blocks in one grid interval, whatever their barriers";
  EXPECT_EQ(run_with_grid_syncs({store(0, kGridLayout.interval_of(1, 4), 0, 10), load(1, second, 5, 11)}).race_count, 1u);
  EXPECT_EQ(run_with_grid_syncs({store(0, second, 0, 10), load(0, kGridLayout.interval_of(1, 1), 5, 11)}).race_count, 0u)
      << "a block barrier still orders its block";
  EXPECT_EQ(run_with_grid_syncs({store(0, first, 0, 10), load(0, kGridLayout.interval_of(1, 2), 5, 11)}).race_count, 0u)
      << "one block, the same count of barriers since two grid syncs: two intervals";
}

TEST(GlobalCheck, EntriesOfAnEarlierGridIntervalGiveWayAndBlocksPastTheLargestAreNotCompared) {
  // Two blocks' loads fill the view in grid interval 0; after a grid sync a third block's load takes an
  // entry, so a fourth block's store in that interval races with it.
  const uint32_t first = kGridLayout.interval_of(0, 0), second = kGridLayout.interval_of(1, 0);
  const GlobalCheckOutcome out =
      run_with_grid_syncs({load(0, first, 0, 10), load(1, first, 0, 11), load(2, second, 0, 12), store(3, second, 0, 13)});
  ASSERT_EQ(out.race_count, 1u);
  EXPECT_EQ(unpack_global_stamp(out.races[0].first, kGridLayout).block, 2u);
  const uint32_t top = kGridLayout.interval_of(kGridLayout.max_grid(), 0);
  EXPECT_EQ(run_with_grid_syncs({store(0, top, 0, 10), load(1, top, 5, 11)}).race_count, 0u);
  EXPECT_EQ(run_with_grid_syncs({store(0, top, 0, 10), load(0, top, 5, 11)}).race_count, 1u)
      << "within a block barriers still tell";
}

// Random histories of one word: a few blocks of a few threads, each block moving through its barrier
// intervals in time; plain and relaxed loads, plain stores and atomics. The reference keeps what the
// engine keeps (engine/shadow_cell.cpp): the last write (an atomic too), every thread's latest read
// since the last plain write, and the plain write an atomic replaced (among the reads: a later read of
// its thread replaces it). Whenever the reference has a race for an access, the rule must report one,
// and every race it names must be one.
struct Reference {
  bool has_write = false;
  GlobalStamp write{};
  bool write_atomic = false;
  std::vector<GlobalStamp> reads;  // latest per thread; a kept plain write among them (kept_write)
  std::vector<bool> kept_write;
};

// Two blocks race in one grid interval (every interval, without grid syncs), two threads of one block
// in one barrier interval.
bool concurrent(const GlobalStamp& a, const GlobalStamp& b, GlobalStampLayout layout) {
  if (a.block != b.block) return layout.grid_of(a.interval) == layout.grid_of(b.interval);
  return a.interval == b.interval && a.thread != b.thread;
}

bool same_thread(const GlobalStamp& a, const GlobalStamp& b) { return a.block == b.block && a.thread == b.thread; }

// With grid syncs (`layout` has grid bits) every block moves to the next grid interval at once now
// and then, its barriers counted again from 0.
void check_random_histories(GlobalStampLayout layout, uint64_t seed) {
  std::mt19937_64 random(seed);
  for (int history = 0; history < 40000; ++history) {
    const uint32_t blocks = 1 + random() % 4, threads = 1 + random() % 4;
    const bool with_strong = history % 2 == 1;
    std::vector<uint32_t> barriers(blocks, 0);
    uint32_t grid = 0;
    const auto concurrent = [layout](const GlobalStamp& a, const GlobalStamp& b) {
      return barracuda::concurrent(a, b, layout);
    };
    GlobalShadowWord word{};
    Reference reference;
    std::vector<std::pair<GlobalStamp, bool>> since_plain_write;  // every access since it (write?)
    for (int step = 0; step < 40; ++step) {
      if (layout.grid_bits != 0 && random() % 12 == 0) {
        ++grid;
        std::fill(barriers.begin(), barriers.end(), 0u);
      }
      const uint32_t block = random() % blocks;
      if (random() % 4 == 0) ++barriers[block];
      GlobalAccess a =
          access(random() % 3 == 0, block, layout.interval_of(grid, barriers[block]), random() % threads, step);
      a.stamp.strong = with_strong && random() % 2 == 0;
      const bool atomic = a.write && a.stamp.strong;
      const GlobalCheckOutcome out = check_global_access(word, a, layout);
      word = out.next;
      bool expect_race = reference.has_write && concurrent(reference.write, a.stamp) &&
                         !(reference.write_atomic && a.stamp.strong);
      if (a.write) {
        for (size_t r = 0; r < reference.reads.size(); ++r) {
          const GlobalStamp& read = reference.reads[r];
          expect_race |= concurrent(read, a.stamp) && !(atomic && read.strong && !reference.kept_write[r]);
        }
      }
      for (uint32_t r = 0; r < out.race_count; ++r) {
        const GlobalStamp first = unpack_global_stamp(out.races[r].first, layout);
        ASSERT_TRUE(concurrent(first, a.stamp)) << "history " << history << " step " << step;
        ASSERT_FALSE(first.strong && a.stamp.strong) << "history " << history << " step " << step;
        // The first access is one of this word's since the last plain write (or that write), and one of
        // the two writes.
        bool found = false;
        for (const auto& [earlier, earlier_write] : since_plain_write) {
          if (pack_global_stamp(earlier, layout) == out.races[r].first && (earlier_write || a.write)) found = true;
        }
        ASSERT_TRUE(found) << "history " << history << " step " << step;
      }
      ASSERT_TRUE(out.race_count > 0 || !expect_race) << "history " << history << " step " << step;
      if (a.write && !atomic) {
        reference = {true, a.stamp, false, {}, {}};
        since_plain_write = {{a.stamp, true}};
        continue;
      }
      since_plain_write.push_back({a.stamp, a.write});
      if (atomic) {
        const bool kept = reference.has_write && !reference.write_atomic &&
                          std::none_of(reference.reads.begin(), reference.reads.end(),
                                       [&](const GlobalStamp& read) { return same_thread(read, reference.write); });
        if (kept) {
          reference.reads.push_back(reference.write);
          reference.kept_write.push_back(true);
        }
        reference.has_write = true;
        reference.write = a.stamp;
        reference.write_atomic = true;
        continue;
      }
      bool replaced = false;
      for (size_t r = 0; r < reference.reads.size(); ++r) {
        if (!same_thread(reference.reads[r], a.stamp)) continue;
        reference.reads[r] = a.stamp;
        reference.kept_write[r] = false;
        replaced = true;
      }
      if (!replaced) {
        reference.reads.push_back(a.stamp);
        reference.kept_write.push_back(false);
      }
    }
  }
}

TEST(GlobalCheck, ThreeViewsOfTwoEntriesFindARaceWheneverTheEngineHasOne) {
  check_random_histories(kLayout, 20261126);
}

TEST(GlobalCheck, WithGridSyncsTheViewsFindARaceWheneverTheEngineHasOne) {
  check_random_histories(global_stamp_layout(1000, true), 20261128);
}

// A warp's lanes loading (or adding to) one word at once leave the shadow their lane-by-lane
// application in lane order leaves (as SharedCheck's test of the same name), entries and sites alike.
TEST(GlobalCheck, LanesTogetherLeaveWhatTheirLaneByLaneApplicationLeaves) {
  std::mt19937_64 random(20261128);
  for (int history = 0; history < 50000; ++history) {
    const uint32_t blocks = 1 + random() % 3;
    const uint32_t warp_base = kWarpSize * (random() % 3);
    const uint32_t interval = 2;
    GlobalShadowWord word{};
    for (int step = random() % 6; step > 0; --step) {
      const uint32_t block = random() % blocks;
      GlobalAccess earlier = access(random() % 4 == 0, block, interval - random() % 3,
                                    static_cast<uint32_t>(random() % (3 * kWarpSize)), random() % 4);
      earlier.stamp.strong = random() % 3 == 0;  // relaxed loads and atomics among them
      word = check_global_access(word, earlier, kLayout).next;
    }
    uint32_t lanes = static_cast<uint32_t>(random());
    if (random() % 2) lanes &= static_cast<uint32_t>(random());
    if (lanes == 0) lanes = 1u << (random() % kWarpSize);
    const uint32_t kind = random() % 3;  // a load, a relaxed load, an atomic
    GlobalAccess together_access = access(kind == 2, random() % blocks, interval, warp_base + lowest_lane(lanes),
                                          random() % 4);
    together_access.stamp.strong = kind != 0;
    GlobalShadowWord expected = word;
    for (uint64_t m = lanes; m != 0; m &= m - 1) {
      GlobalAccess lane_access = together_access;
      lane_access.stamp.thread = lane_access.last_writer_thread = warp_base + lowest_lane(static_cast<uint32_t>(m));
      expected = check_global_access(expected, lane_access, kLayout).next;
    }
    GlobalShadowWord together = word;
    apply_global_lanes(together, together_access, lanes, warp_base, kLayout);
    ASSERT_EQ(together.write, expected.write) << "history " << history;
    for (uint32_t e = 0; e < kGlobalEntries; ++e) {
      ASSERT_EQ(together.entries[e], expected.entries[e]) << "history " << history;
      ASSERT_EQ(together.entry_sites[e], expected.entry_sites[e]) << "history " << history;
    }
    ASSERT_EQ(together.value, expected.value) << "history " << history;
  }
}

}  // namespace
}  // namespace barracuda
