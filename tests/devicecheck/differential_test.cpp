// The proof that checking shared (and global) memory on the device loses no verdict: on random barrier-only
// launches, the host engine checking every shared access and the engine receiving only the races the
// device rule found (replayed by simulate_device_shared_check) must agree:
// * every race the device reports is one the engine reports (same site pair, class, hazard), or a race
//   of the launch all the same (every_race: the shadows keep other accesses than the engine's,
//   barracuda/shared_check.h and global_check.h, so they may name a pair the engine does not);
// * every race the engine reports has a device race at the same second access with the same hazard,
//   or the device reports its pair (read-after-write and write-after-write pairs are the same; a write
//   racing with reads names one of them, not necessarily each: the shadows keep two readers).
//   Atomic-plain races too, against every race the device sent (the engine's list merges the two
//   orders of a site pair, and names the last atomic a plain access races with where the device names
//   one its view keeps).

// BARRACUDA_DIFF_TRACES overrides the trace count, BARRACUDA_DIFF_SEED runs one seed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "barracuda/global_check.h"
#include "barracuda/record_view.h"
#include "barrier_only_trace.h"
#include "engine/engine.h"
#include "shared_check_simulator.h"
#include "../engine/test_environment.h"

namespace barracuda::devicecheck::test {
namespace {

#ifdef BARRACUDA_DIFF_DEFAULT_TRACES
constexpr uint64_t kDefaultTraces = BARRACUDA_DIFF_DEFAULT_TRACES;
#else
constexpr uint64_t kDefaultTraces = 50000;
#endif

using barracuda::test::env_or;

using PairKey = std::tuple<uint32_t, uint32_t, engine::RaceClass, engine::Hazard>;  // sorted sites
using SecondKey = std::tuple<uint32_t, engine::Hazard>;                             // second site

struct Findings {
  std::set<PairKey> pairs;
  std::set<SecondKey> seconds;
  // The pairs each second came from. A pair's entry names one of its races: two checkers finding the
  // same pair in two orders name different seconds for it.
  std::map<SecondKey, std::set<PairKey>> second_pairs;
  std::set<PairKey> same_value;
  std::set<uint32_t> observed_stores;  // store sites a racing read observed (RAW first, WAR second)
};

Findings check(const engine::LaunchInfo& launch, std::span<const RecordHeader> slots, MemorySpace space) {
  const std::unique_ptr<engine::Engine> checked = checked_by_engine(launch, slots);
  const engine::Engine& engine = *checked;
  EXPECT_EQ(engine.stats().malformed_records, 0u);
  Findings findings;
  for (const engine::Race& race : engine.races()) {
    EXPECT_EQ(race.space, space);
    const uint32_t a = raw(race.first_site), b = raw(race.second_site);
    const PairKey key{std::min(a, b), std::max(a, b), race.race_class, race.hazard};
    findings.pairs.insert(key);
    findings.seconds.insert({b, race.hazard});
    findings.second_pairs[{b, race.hazard}].insert(key);
    if (race.same_value) findings.same_value.insert(key);
    if (race.hazard == engine::Hazard::kReadAfterWrite) findings.observed_stores.insert(a);
    if (race.hazard == engine::Hazard::kWriteAfterRead) findings.observed_stores.insert(b);
  }
  return findings;
}

// Every pair of conflicting lane accesses of `sites` the launch holds, by sorted sites, class and
// hazard: what a checker keeping every access would report (no FastTrack economy, no lanes of one store
// of one value left out: only consulted for pairs the engine does not name). Two accesses of one word
// conflict when they come from two blocks, or two threads of one block in one barrier interval, at
// least one writes, and they are not both strong in global memory (two atomics, or an atomic and a
// relaxed load) nor both atomics in shared memory.
std::set<PairKey> every_race(std::span<const RecordHeader> slots, MemorySpace space, const std::set<uint32_t>& sites) {
  struct LaneAccess {
    uint32_t block, thread, interval, site;
    bool write, atomic, strong;
  };
  std::map<uint64_t, std::vector<LaneAccess>> by_word;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> barriers;  // (block, thread) -> barriers passed
  for (size_t i = 0; i < slots.size();) {
    const RecordView record(slots[i], slots.data() + i + 1);
    const RecordHeader& h = record.header();
    for (uint32_t m = h.active_mask; m; m &= m - 1) {
      const uint32_t lane = static_cast<uint32_t>(__builtin_ctz(m));
      const uint32_t thread = h.warp_id * kWarpSize + lane;
      if (record.op() == RecordOp::kBarrier) ++barriers[{h.block_id, thread}];
      if (!record.is_memory_access() || record.space() != space || !sites.contains(h.site_id)) continue;
      const bool atomic = record.op() == RecordOp::kAtomic || record.op() == RecordOp::kReduction;
      const uint64_t address = record.lane_address(lane);
      for (uint64_t word = address & ~uint64_t{3}; word < address + record.access_bytes(); word += 4) {
        by_word[word].push_back({h.block_id, thread, barriers[{h.block_id, thread}], h.site_id,
                                 record.op() != RecordOp::kLoad, atomic,
                                 space == MemorySpace::kGlobal ? global_access_strong(record.op(), h.space_sem) : atomic});
      }
    }
    i += record.slot_count();
  }
  std::set<PairKey> races;
  for (const auto& [word, accesses] : by_word) {
    for (size_t a = 0; a < accesses.size(); ++a) {
      for (size_t b = a + 1; b < accesses.size(); ++b) {
        const LaneAccess& x = accesses[a];
        const LaneAccess& y = accesses[b];
        if (!(x.write || y.write) || (x.strong && y.strong)) continue;
        if (x.block == y.block && (x.thread == y.thread || x.interval != y.interval)) continue;
        races.insert({std::min(x.site, y.site), std::max(x.site, y.site),
                      race_class_between(x.block, x.thread, y.block, y.thread),
                      hazard_between(x.write, x.atomic, y.write, y.atomic)});
      }
    }
  }
  return races;
}

// The second access and hazard of every race the device sent (kSharedRace and kGlobalRace records),
// before the engine's list merges the two orders of a site pair into one entry.
std::set<SecondKey> race_seconds(std::span<const RecordHeader> slots) {
  std::set<SecondKey> seconds;
  for (size_t i = 0; i < slots.size();) {
    const RecordView record(slots[i], slots.data() + i + 1);
    if (record.op() == RecordOp::kGlobalRace) seconds.insert({slots[i].site_id, record.global_race().hazard});
    if (record.op() == RecordOp::kSharedRace) seconds.insert({slots[i].site_id, record.shared_race().hazard});
    i += record.slot_count();
  }
  return seconds;
}

std::string describe(const std::set<SecondKey>& seconds) {
  std::ostringstream out;
  for (const auto& [site, hazard] : seconds) out << " (" << site << " hazard " << int(hazard) << ")";
  return out.str();
}
std::string describe(const std::set<PairKey>& pairs) {
  std::ostringstream out;
  for (const auto& [a, b, c, h] : pairs) out << " (" << a << "," << b << " class " << int(c) << " hazard " << int(h) << ")";
  return out.str();
}

using Simulator = std::vector<RecordHeader> (*)(const engine::LaunchInfo&, std::span<const RecordHeader>);

// Runs both sides over the seeded traces of `space` and fails on any disagreement.
void run_differential(MemorySpace space, Simulator simulate) {
  const uint64_t traces = env_or("BARRACUDA_DIFF_TRACES", kDefaultTraces);
  const uint64_t only = env_or("BARRACUDA_DIFF_SEED", ~0ull);
  uint64_t racy = 0, identical = 0, failures = 0;
  for (uint64_t seed = 0; seed < traces; ++seed) {
    if (only != ~0ull && seed != only) continue;
    const BarrierOnlyTrace trace = make_barrier_only_trace(seed, space);
    const Findings host = check(trace.launch, trace.slots, space);
    const std::vector<RecordHeader> received = simulate(trace.launch, trace.slots);
    const Findings device = check(trace.launch, received, space);
    racy += !host.pairs.empty();
    identical += host.pairs == device.pairs;
    // A race the engine does not name must be a race all the same (the shadows keep other accesses
    // than the engine's).
    std::set<PairKey> unnamed;
    std::set_difference(device.pairs.begin(), device.pairs.end(), host.pairs.begin(), host.pairs.end(),
                        std::inserter(unnamed, unnamed.end()));
    if (!unnamed.empty()) {
      std::set<uint32_t> sites;
      for (const auto& [low, high, race_class, hazard] : unnamed) sites.insert({low, high});
      const std::set<PairKey> all = every_race(trace.slots, space, sites);
      std::erase_if(unnamed, [&](const PairKey& pair) { return all.contains(pair); });
    }
    const bool subset = unnamed.empty();
    // (Seconds the device has beyond the engine's come from pairs checked above.)
    const std::set<SecondKey> device_seconds = race_seconds(received);
    const bool covers = std::all_of(host.seconds.begin(), host.seconds.end(), [&](const SecondKey& second) {
      const std::set<PairKey>& pairs = host.second_pairs.at(second);
      return device_seconds.contains(second) ||
             std::any_of(pairs.begin(), pairs.end(), [&](const PairKey& pair) { return device.pairs.contains(pair); });
    });
    // A pair both report is same-value on the device when it is on the host (the device may say so
    // of more pairs: it sees the two stores' values, not every store of the two sites), unless a read
    // the device found racing with one of its stores observed it (same-value needs that no read can:
    // the engine, naming the last atomic rather than the store before it, may not have seen that read).
    const bool same_value = std::all_of(host.same_value.begin(), host.same_value.end(), [&](const PairKey& pair) {
      const auto& [low, high, race_class, hazard] = pair;
      const auto observed_on_device_only = [&](uint32_t site) {
        return device.observed_stores.contains(site) && !host.observed_stores.contains(site);
      };
      return device.same_value.contains(pair) || observed_on_device_only(low) || observed_on_device_only(high);
    });
    if (!subset || !covers || !same_value) {
      ++failures;
      ADD_FAILURE() << "seed " << seed << (subset ? "" : ": device race the engine does not report")
                    << (covers ? "" : ": second accesses differ") << (same_value ? "" : ": same-value class lost")
                    << "\n  engine:" << describe(host.pairs) << "\n  device:" << describe(device.pairs)
                    << "\n  engine seconds:" << describe(host.seconds)
                    << "\n  device seconds:" << describe(race_seconds(received));
      if (failures > 10) break;
    }
  }
  std::cout << traces << " traces, " << racy << " racy, " << identical << " with identical race sets\n";
  if (only == ~0ull) {
    EXPECT_GT(racy, traces / 4) << "the generator must produce races";
  }
}

TEST(DeviceSharedCheck, FindsWhatTheEngineFindsOnBarrierOnlyLaunches) {
  run_differential(MemorySpace::kShared, simulate_device_shared_check);
}

// The same proof for global memory in launches nothing runs beside: several blocks, atomics and relaxed
// loads of .gpu or .sys scope.
TEST(DeviceGlobalCheck, FindsWhatTheEngineFindsOnBarrierOnlyLaunches) {
  run_differential(MemorySpace::kGlobal, simulate_device_global_check);
}

}  // namespace
}  // namespace barracuda::devicecheck::test
