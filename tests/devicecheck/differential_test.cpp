// The proof that checking shared (and global) memory on the device loses no verdict: on random barrier-only
// launches, the host engine checking every shared access and the engine receiving only the races the
// device rule found (replayed by simulate_device_shared_check) must agree:
// * every race the device reports is one the engine reports (same site pair, class, hazard);
// * every race the engine reports has a device race at the same second access with the same hazard
//   (read-after-write and write-after-write pairs are the same; a write racing with reads names one
//   of them, not necessarily each: the shadow keeps two readers, barracuda/shared_check.h);
// * atomic-plain races (the hazard names no direction, so the engine's list keeps one of the two
//   orders of a site pair): the same atomic sites race with plain accesses on both sides.

// BARRACUDA_DIFF_TRACES overrides the trace count, BARRACUDA_DIFF_SEED runs one seed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <sstream>
#include <tuple>

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
  std::set<SecondKey> seconds;  // of races with a plain hazard
  std::set<uint32_t> atomic_plain_sites;  // atomic sites of atomic-plain races
  std::set<PairKey> same_value;
};

// The sites of atomics and reductions in `slots`.
std::set<uint32_t> atomic_sites(std::span<const RecordHeader> slots) {
  std::set<uint32_t> sites;
  for (size_t i = 0; i < slots.size();) {
    const RecordView record(slots[i], slots.data() + i + 1);
    if (record.op() == RecordOp::kAtomic || record.op() == RecordOp::kReduction) sites.insert(slots[i].site_id);
    i += record.slot_count();
  }
  return sites;
}

Findings check(const engine::LaunchInfo& launch, std::span<const RecordHeader> slots, const std::set<uint32_t>& atomics,
                MemorySpace space) {
  const std::unique_ptr<engine::Engine> checked = checked_by_engine(launch, slots);
  const engine::Engine& engine = *checked;
  EXPECT_EQ(engine.stats().malformed_records, 0u);
  Findings findings;
  for (const engine::Race& race : engine.races()) {
    EXPECT_EQ(race.space, space);
    const uint32_t a = raw(race.first_site), b = raw(race.second_site);
    const PairKey key{std::min(a, b), std::max(a, b), race.race_class, race.hazard};
    findings.pairs.insert(key);
    if (race.hazard == engine::Hazard::kAtomicPlain) {
      for (const uint32_t site : {a, b}) {
        if (atomics.contains(site)) findings.atomic_plain_sites.insert(site);
      }
    } else {
      findings.seconds.insert({b, race.hazard});
    }
    if (race.same_value) findings.same_value.insert(key);
  }
  return findings;
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
    const std::set<uint32_t> atomics = atomic_sites(trace.slots);
    const Findings host = check(trace.launch, trace.slots, atomics, space);
    const std::vector<RecordHeader> received = simulate(trace.launch, trace.slots);
    const Findings device = check(trace.launch, received, atomics, space);
    racy += !host.pairs.empty();
    identical += host.pairs == device.pairs;
    const bool subset = std::includes(host.pairs.begin(), host.pairs.end(), device.pairs.begin(), device.pairs.end());
    const bool covers = host.seconds == device.seconds && host.atomic_plain_sites == device.atomic_plain_sites;
    // A pair both report is same-value on the device when it is on the host (the device may say so
    // of more pairs: it sees the two stores' values, not every store of the two sites).
    const bool same_value = std::includes(device.same_value.begin(), device.same_value.end(),
                                          host.same_value.begin(), host.same_value.end());
    if (!subset || !covers || !same_value) {
      ++failures;
      ADD_FAILURE() << "seed " << seed << (subset ? "" : ": device race the engine does not report")
                    << (covers ? "" : ": second accesses differ") << (same_value ? "" : ": same-value class lost")
                    << "\n  engine:" << describe(host.pairs) << "\n  device:" << describe(device.pairs);
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

// The same proof for global memory in launches nothing runs beside: several blocks, no atomics.
TEST(DeviceGlobalCheck, FindsWhatTheEngineFindsOnBarrierOnlyLaunches) {
  run_differential(MemorySpace::kGlobal, simulate_device_global_check);
}

}  // namespace
}  // namespace barracuda::devicecheck::test
