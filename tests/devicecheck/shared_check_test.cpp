// The device's shared-memory rule (barracuda/shared_check.h), access by access.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <random>
#include <vector>

#include "barracuda/shared_check.h"

namespace barracuda {
namespace {

SharedAccess load(uint32_t epoch, uint32_t thread, uint32_t site) {
  return {{epoch, thread, site}, false, thread, false, 0, 0};
}
SharedAccess store(uint32_t epoch, uint32_t thread, uint32_t site) {
  return {{epoch, thread, site}, true, thread, false, 0, 0};
}
SharedAccess uniform_store(uint32_t epoch, uint32_t thread, uint32_t site, uint32_t value) {
  return {{epoch, thread, site}, true, thread, true, value, 0};
}
SharedAccess atomic(uint32_t epoch, uint32_t thread, uint32_t site) {
  return {{epoch, thread, site, true}, true, thread, false, 0, 0};
}

// Applies the accesses in order and returns the races of the last one.
SharedCheckOutcome run(std::initializer_list<SharedAccess> accesses) {
  SharedShadowWord word{};
  SharedCheckOutcome outcome{};
  for (const SharedAccess& access : accesses) {
    outcome = check_shared_access(word, access);
    word = outcome.next;
  }
  return outcome;
}

// The access's only race: with `hazard`, against thread `thread`'s access at `site`.
void expect_only_race(const SharedCheckOutcome& out, Hazard hazard, uint32_t thread, uint32_t site) {
  ASSERT_EQ(out.race_count, 1u);
  EXPECT_EQ(out.races[0].hazard, hazard);
  EXPECT_EQ(out.races[0].first.thread, thread);
  EXPECT_EQ(out.races[0].first.site, site);
}

TEST(SharedStamp, PacksEpochThreadSiteAndAtomic) {
  for (const bool is_atomic : {false, true}) {
    const SharedStamp stamp{0x12345678u, 1023, kSharedCheckMaxSites - 1, is_atomic};
    const SharedStamp back = unpack_stamp(pack_stamp(stamp));
    EXPECT_EQ(back.epoch, stamp.epoch);
    EXPECT_EQ(back.thread, stamp.thread);
    EXPECT_EQ(back.site, stamp.site);
    EXPECT_EQ(back.atomic, is_atomic);
  }
  EXPECT_NE(pack_stamp({1, 0, 0, false}), 0u) << "epoch 1 and up never reads as an empty entry";
}

TEST(SharedCheck, AtomicsOfTwoThreadsNeverRace) {
  EXPECT_EQ(run({atomic(1, 0, 10), atomic(1, 40, 10)}).race_count, 0u);
  EXPECT_EQ(run({atomic(1, 0, 10), atomic(1, 1, 11), atomic(1, 2, 10)}).race_count, 0u);
}

TEST(SharedCheck, AnAtomicAndAPlainAccessOfAnotherThreadRaceAsAtomicPlain) {
  for (const SharedCheckOutcome& out : {run({store(1, 0, 10), atomic(1, 1, 11)}), run({load(1, 0, 10), atomic(1, 1, 11)}),
                                        run({atomic(1, 0, 10), store(1, 1, 11)}), run({atomic(1, 0, 10), load(1, 1, 11)})}) {
    ASSERT_EQ(out.race_count, 1u);
    EXPECT_EQ(out.races[0].hazard, Hazard::kAtomicPlain);
    EXPECT_EQ(out.races[0].first.thread, 0u);
    EXPECT_EQ(out.races[0].first.site, 10u);
  }
}

TEST(SharedCheck, AnAtomicIsOrderedByABarrierAndByItsOwnThread) {
  EXPECT_EQ(run({store(1, 0, 10), atomic(2, 1, 11), load(3, 2, 12)}).race_count, 0u);
  EXPECT_EQ(run({atomic(1, 3, 10), load(1, 3, 11), store(1, 3, 12)}).race_count, 0u);
}

TEST(SharedCheck, AnAtomicLeavesTheReadsForALaterAtomicToFind) {
  // Thread 0 reads, then makes an atomic (its own read is no race): a later atomic of another thread
  // races with the read, which the first atomic cannot stand for (two atomics never race).
  expect_only_race(run({load(1, 0, 10), atomic(1, 0, 11), atomic(1, 2, 12)}), Hazard::kAtomicPlain, 0, 10);
  // A plain store races with the atomic and with the read.
  const SharedCheckOutcome raced = run({load(1, 0, 10), atomic(1, 1, 11), store(1, 2, 12)});
  ASSERT_EQ(raced.race_count, 2u);
  EXPECT_EQ(raced.races[0].hazard, Hazard::kWriteAfterRead);
  EXPECT_EQ(raced.races[0].first.thread, 0u);
  EXPECT_EQ(raced.races[1].hazard, Hazard::kAtomicPlain);
  EXPECT_EQ(raced.races[1].first.thread, 1u);
  // A plain store stands for its own thread's read: the atomic after it races with the store only.
  const SharedCheckOutcome plain = run({load(1, 0, 10), store(1, 0, 11), atomic(1, 2, 12)});
  ASSERT_EQ(plain.race_count, 1u);
  EXPECT_EQ(plain.races[0].first.site, 11u);
}

TEST(SharedCheck, AtomicsNeverBecomeTheLastWrite) {
  SharedShadowWord word{};
  word = check_shared_access(word, store(1, 0, 10)).next;
  const uint64_t write = word.write;
  for (uint32_t thread = 1; thread < 64; ++thread) word = check_shared_access(word, atomic(1, thread, 11)).next;
  EXPECT_EQ(word.write, write);
  // The view holds two threads' atomics; every later atomic of a third thread leaves the word as it is
  // (no compare-and-swap on the device).
  const SharedShadowWord full = word;
  EXPECT_EQ(unpack_stamp(full.atomics[0]).thread, 1u);
  EXPECT_EQ(unpack_stamp(full.atomics[1]).thread, 2u);
  const SharedCheckOutcome again = check_shared_access(full, atomic(1, 40, 11));
  EXPECT_EQ(again.race_count, 1u) << "with the plain write";
  EXPECT_EQ(std::memcmp(&again.next, &full, sizeof full), 0);
  // A plain access of thread 1 still finds an atomic of another thread; a plain write forgets them.
  const SharedCheckOutcome read = check_shared_access(full, load(1, 1, 12));
  ASSERT_EQ(read.race_count, 2u);
  EXPECT_EQ(read.races[1].hazard, Hazard::kAtomicPlain);
  EXPECT_EQ(read.races[1].first.thread, 2u);
  const SharedShadowWord written = check_shared_access(full, store(1, 3, 13)).next;
  EXPECT_EQ(written.atomics[0] | written.atomics[1], 0u);
}

TEST(SharedCheck, AStoreThenItsOwnAndOtherThreadsAtomicsRace) {
  // Lane 0 resets a counter, then lanes 0 and 1 add to it: lane 1's add races with the store, which
  // lane 0's own add does not replace (as the engine keeps it: AccessRaces.SharedMemoryKeeps...).
  expect_only_race(run({store(1, 0, 10), atomic(1, 0, 11), atomic(1, 1, 11)}), Hazard::kAtomicPlain, 0, 10);
}

// Every kind of earlier access of one thread against every kind of later one of another thread in
// the same interval: a race exactly when one writes and they are not both atomics, with the hazard the
// host engine names (engine::hazard_between, through the one race_rule.h).
TEST(SharedCheck, EveryPairOfKindsRacesAsTheEngineSays) {
  const auto make = [](int kind, uint32_t thread, uint32_t site) {
    return kind == 0 ? load(1, thread, site) : kind == 1 ? store(1, thread, site) : atomic(1, thread, site);
  };
  for (int earlier = 0; earlier < 3; ++earlier) {
    for (int later = 0; later < 3; ++later) {
      const SharedCheckOutcome out = run({make(earlier, 0, 10), make(later, 1, 11)});
      const bool earlier_atomic = earlier == 2, later_atomic = later == 2;
      const bool conflict = (earlier != 0 || later != 0) && !(earlier_atomic && later_atomic);
      ASSERT_EQ(out.race_count, conflict ? 1u : 0u) << earlier << " " << later;
      if (conflict) {
        EXPECT_EQ(out.races[0].hazard, hazard_between(earlier != 0, earlier_atomic, later != 0, later_atomic));
        EXPECT_EQ(out.races[0].first.site, 10u);
      }
    }
  }
}

// Random histories of one block's word: a few threads moving through barrier intervals; loads,
// stores and atomics. The reference keeps what the engine keeps in shared memory
// (engine/shadow_cell.cpp): the last write (an atomic too) and every thread's latest read since the
// last plain write. Whenever the reference has a race for an access, the rule must report one, and
// every race it names must be one: of another thread, in this interval, since the last plain write
// (or that write), not two atomics.
TEST(SharedCheck, TwoViewsOfTwoEntriesFindARaceWheneverTheEngineHasOne) {
  std::mt19937_64 random(20261128);
  for (int history = 0; history < 40000; ++history) {
    const uint32_t threads = 2 + random() % 4;
    uint32_t epoch = 1;
    SharedShadowWord word{};
    std::optional<SharedAccess> last_write;
    std::vector<SharedAccess> reads;            // latest per thread since the last plain write
    std::vector<SharedAccess> since_plain_write;  // that write and every access since
    for (int step = 0; step < 40; ++step) {
      if (random() % 8 == 0) ++epoch;
      const uint32_t kind = random() % 3, thread = random() % threads, site = step;
      const SharedAccess a = kind == 0 ? load(epoch, thread, site) : kind == 1 ? store(epoch, thread, site)
                                                                               : atomic(epoch, thread, site);
      const bool is_atomic = kind == 2;
      const auto concurrent = [&](const SharedAccess& earlier) {
        return earlier.stamp.epoch == epoch && earlier.stamp.thread != thread;
      };
      bool expect_race = last_write && concurrent(*last_write) && !(last_write->stamp.atomic && is_atomic);
      if (a.write) {
        for (const SharedAccess& read : reads) expect_race |= concurrent(read);
      }
      const SharedCheckOutcome out = check_shared_access(word, a);
      word = out.next;
      for (uint32_t r = 0; r < out.race_count; ++r) {
        const SharedStamp first = out.races[r].first;
        const bool named = std::any_of(since_plain_write.begin(), since_plain_write.end(), [&](const SharedAccess& e) {
          return e.stamp.thread == first.thread && e.stamp.site == first.site && concurrent(e) &&
                 (e.write || a.write) && !(e.stamp.atomic && is_atomic);
        });
        ASSERT_TRUE(named) << "history " << history << " step " << step;
      }
      ASSERT_TRUE(out.race_count > 0 || !expect_race) << "history " << history << " step " << step;
      if (a.write && !is_atomic) {
        last_write = a;
        reads.clear();
        since_plain_write = {a};
        continue;
      }
      since_plain_write.push_back(a);
      if (is_atomic) {
        last_write = a;
        continue;
      }
      std::erase_if(reads, [&](const SharedAccess& read) { return read.stamp.thread == thread; });
      reads.push_back(a);
    }
  }
}

TEST(SharedCheck, WriteThenReadOfAnotherThreadInOneIntervalRaces) {
  const SharedCheckOutcome out = run({store(1, 0, 10), load(1, 40, 11)});
  ASSERT_EQ(out.race_count, 1u);
  EXPECT_EQ(out.races[0].hazard, Hazard::kReadAfterWrite);
  EXPECT_EQ(out.races[0].first.thread, 0u);
  EXPECT_EQ(out.races[0].first.site, 10u);
}

TEST(SharedCheck, ABarrierBetweenOrdersThem) {
  EXPECT_EQ(run({store(1, 0, 10), load(2, 40, 11)}).race_count, 0u);
  EXPECT_EQ(run({load(1, 0, 10), store(2, 40, 11)}).race_count, 0u);
  EXPECT_EQ(run({store(1, 0, 10), store(2, 40, 11)}).race_count, 0u);
}

TEST(SharedCheck, OneThreadNeverRacesWithItself) {
  EXPECT_EQ(run({store(1, 5, 10), load(1, 5, 11), store(1, 5, 12)}).race_count, 0u);
}

TEST(SharedCheck, ReadsDoNotRaceWithReads) { EXPECT_EQ(run({load(1, 0, 10), load(1, 1, 10)}).race_count, 0u); }

TEST(SharedCheck, AWriteRacesWithTheLastWriteAndWithReadsSinceIt) {
  const SharedCheckOutcome out = run({store(1, 0, 10), load(1, 1, 11), load(1, 2, 12), store(1, 3, 13)});
  ASSERT_EQ(out.race_count, 3u);
  EXPECT_EQ(out.races[0].hazard, Hazard::kWriteAfterWrite);
  EXPECT_EQ(out.races[1].hazard, Hazard::kWriteAfterRead);
  EXPECT_EQ(out.races[1].first.thread, 1u);
  EXPECT_EQ(out.races[2].first.thread, 2u);
}

TEST(SharedCheck, AWriteForgetsTheReadsBeforeIt) {
  // Thread 1's read was checked by thread 0's write; the host's FastTrack rule reports it once.
  const SharedCheckOutcome out = run({load(1, 1, 11), store(1, 0, 10), store(1, 0, 12)});
  EXPECT_EQ(out.race_count, 0u);
}

TEST(SharedCheck, AWriteNamesAReaderOtherThanItselfWheneverOneExists) {
  // Readers 1, 2, 3: the shadow keeps two different threads, so the write by 2 still names another.
  const SharedCheckOutcome out = run({load(1, 1, 11), load(1, 2, 12), load(1, 3, 13), store(1, 2, 14)});
  ASSERT_GE(out.race_count, 1u);
  for (uint32_t i = 0; i < out.race_count; ++i) {
    EXPECT_EQ(out.races[i].hazard, Hazard::kWriteAfterRead);
    EXPECT_NE(out.races[i].first.thread, 2u);
  }
}

TEST(SharedCheck, AReaderKeepsItsLatestReadSite) {
  const SharedCheckOutcome out = run({load(1, 1, 11), load(1, 1, 12), store(1, 0, 14)});
  ASSERT_EQ(out.race_count, 1u);
  EXPECT_EQ(out.races[0].first.site, 12u);
}

TEST(SharedCheck, EntriesOfAnEarlierBlockOnTheSlotAreStale) {
  // Epochs only grow on a slot: whatever an earlier block left says nothing to a later epoch.
  EXPECT_EQ(run({store(7, 3, 10), load(7, 4, 10), store(9, 4, 11)}).race_count, 0u);
}

TEST(SharedCheck, SameValueStoresAreMarked) {
  SharedCheckOutcome out = run({uniform_store(1, 0, 10, 1), uniform_store(1, 40, 11, 1)});
  ASSERT_EQ(out.race_count, 1u);
  EXPECT_TRUE(out.races[0].same_value);
  out = run({uniform_store(1, 0, 10, 1), uniform_store(1, 40, 11, 2)});
  ASSERT_EQ(out.race_count, 1u);
  EXPECT_FALSE(out.races[0].same_value);
  out = run({uniform_store(1, 0, 10, 1), store(1, 40, 11)});
  ASSERT_EQ(out.race_count, 1u);
  EXPECT_FALSE(out.races[0].same_value);
}

// A writer can find another's stamp of its interval before that write's value is beside it (the
// device swaps the stamp in first): the value there is of an earlier interval, which the device waits
// out (lags_written_value). Had it compared, the two stores of 1 would be two different values.
TEST(SharedCheck, AValueOfAnEarlierIntervalBesideACurrentStampIsNotYetThere) {
  SharedShadowWord seen = run({uniform_store(1, 0, 10, 0), uniform_store(2, 0, 10, 1)}).next;
  seen.value = shared_write_value(uniform_store(1, 0, 10, 0));  // the second store's value not there yet
  const SharedAccess later = uniform_store(2, 40, 11, 1);
  EXPECT_TRUE(lags_written_value(seen, later));
  EXPECT_FALSE(check_shared_access(seen, later).races[0].same_value);
  seen.value = shared_write_value(uniform_store(2, 0, 10, 1));  // there
  EXPECT_FALSE(lags_written_value(seen, later));
  EXPECT_TRUE(check_shared_access(seen, later).races[0].same_value);
  seen.value = 0;  // a store that was not uniform: waited for, then a different value
  EXPECT_TRUE(lags_written_value(seen, later));
  EXPECT_FALSE(lags_written_value(seen, store(2, 40, 11)));               // not uniform: no value compared
  EXPECT_FALSE(lags_written_value(seen, uniform_store(3, 40, 11, 1)));    // the stamp is of an earlier interval
  EXPECT_FALSE(lags_written_value(seen, uniform_store(2, 0, 11, 1)));     // its own thread's write
}

// Each race says what its earlier access did (a device race record's atomic-plain sides come from it).
TEST(SharedCheck, ARaceNamesWhatItsEarlierAccessDid) {
  EXPECT_EQ(run({store(1, 0, 10), load(1, 40, 11)}).races[0].first_op, AccessOp::kWrite);
  EXPECT_EQ(run({load(1, 0, 10), store(1, 40, 11)}).races[0].first_op, AccessOp::kRead);
  EXPECT_EQ(run({load(1, 0, 10), atomic(1, 40, 11)}).races[0].first_op, AccessOp::kRead);
  EXPECT_EQ(run({atomic(1, 0, 10), load(1, 40, 11)}).races[0].first_op, AccessOp::kAtomic);
  EXPECT_EQ(run({store(1, 0, 10), atomic(1, 40, 11)}).races[0].first_op, AccessOp::kWrite);
}

TEST(SharedCheck, LanesOfOneSameValueStoreActAsOneWrite) {
  // Lanes 3, 4 and 9 store one value to one address: lane 3 checks, lane 9 is left as the writer.
  EXPECT_TRUE(shared_lane_role(true, ~0u, 0x218, 3).checks);
  EXPECT_FALSE(shared_lane_role(true, ~0u, 0x218, 4).checks);
  EXPECT_EQ(shared_lane_role(true, ~0u, 0x218, 3).last_writer_lane, 9u);
  EXPECT_TRUE(shared_lane_role(false, ~0u, 0x218, 4).checks);
  EXPECT_EQ(shared_lane_role(false, ~0u, 0x218, 4).last_writer_lane, 4u);
  SharedAccess lane3 = store(1, 3, 10);
  lane3.last_writer_thread = 9;
  const SharedCheckOutcome out = run({lane3, load(1, 9, 11)});
  EXPECT_EQ(out.race_count, 0u) << "the last writer is lane 9: its own read does not race";
}

TEST(SharedCheck, AnEarlierWriteOfTheSameSameValueStoreByALowerLaneIsNotReported) {
  // As the host engine: between barriers it cannot tell lane 0's earlier execution of site 10 from
  // this one, whose lanes below lane 1 (lane 0) it has already applied.
  SharedAccess lane1 = uniform_store(1, 1, 10, 5);
  lane1.same_instruction_lanes = 0x1;
  EXPECT_EQ(run({uniform_store(1, 0, 10, 5), lane1}).race_count, 0u);
  lane1.same_instruction_lanes = 0;
  EXPECT_EQ(run({uniform_store(1, 0, 10, 5), lane1}).race_count, 1u);
}

// A warp's lanes reading one word at once leave the shadow their lane-by-lane application in lane
// order leaves, from any shadow: random earlier accesses of the warp's and other warps' threads, in
// this interval and the one before, then one read of random lanes (a few of which may hold entries).
TEST(SharedCheck, ReadLanesLeaveWhatTheirLaneByLaneApplicationLeaves) {
  std::mt19937 random(20261128);
  for (int history = 0; history < 50000; ++history) {
    const uint32_t warp_base = kWarpSize * (random() % 3);
    const uint32_t epoch = 5;
    SharedShadowWord word{};
    for (int step = random() % 6; step > 0; --step) {
      const uint32_t thread = random() % (3 * kWarpSize);
      const uint32_t when = epoch - random() % 2;
      const uint32_t site = random() % 4;
      const uint32_t kind = random() % 4;
      const SharedAccess earlier = kind == 0 ? store(when, thread, site) : kind == 1 ? atomic(when, thread, site)
                                                                                     : load(when, thread, site);
      word = check_shared_access(word, earlier).next;
    }
    uint32_t lanes = static_cast<uint32_t>(random());
    if (random() % 2) lanes &= static_cast<uint32_t>(random());
    if (lanes == 0) lanes = 1u << (random() % kWarpSize);
    const SharedAccess read = load(epoch, warp_base + lowest_lane(lanes), random() % 4);
    SharedShadowWord expected = word;
    for (uint32_t m = lanes; m != 0; m &= m - 1) {
      SharedAccess lane_read = read;
      lane_read.stamp.thread = lane_read.last_writer_thread = warp_base + lowest_lane(m);
      expected = check_shared_access(expected, lane_read).next;
    }
    const SharedShadowWord together = apply_shared_read_lanes(word, read, lanes, warp_base);
    ASSERT_EQ(together.write, expected.write) << "history " << history;
    ASSERT_EQ(together.readers[0], expected.readers[0]) << "history " << history;
    ASSERT_EQ(together.readers[1], expected.readers[1]) << "history " << history;
    ASSERT_EQ(together.value, expected.value) << "history " << history;
    ASSERT_EQ(together.atomics[0], expected.atomics[0]) << "history " << history;
    ASSERT_EQ(together.atomics[1], expected.atomics[1]) << "history " << history;
  }
}

}  // namespace
}  // namespace barracuda
