// Counting block barriers on the device instead of logging them loses no verdict
// (barracuda/barrier_count.h, device/barrier_counter.cuh): the engine given every barrier record and
// the engine given what the device sends instead (count_barriers_on_device) agree on
// * the races of random barrier-only launches whose accesses all reach the host, since
//   kBarriersPassed orders them as the barrier records did;
// * the barrier divergences of random barrier and exit sequences of lane groups that pass different
//   numbers of barriers, exit early or go on before a barrier completed, in any order.
// And the rule itself, step by step.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <sstream>
#include <tuple>

#include "barracuda/barrier_count.h"
#include "barracuda/record_view.h"
#include "barrier_count_simulator.h"
#include "barrier_only_trace.h"
#include "engine/engine.h"

namespace barracuda::devicecheck::test {
namespace {

// The sanitizer build runs a tenth of the traces (each costs ~40x there).
#ifdef BARRACUDA_BARRIER_COUNT_FEWER_TRACES
constexpr uint64_t kTraceDivisor = 10;
#else
constexpr uint64_t kTraceDivisor = 1;
#endif

// Sites, class, hazard and both threads (block, block-linear thread).
using RaceKey = std::tuple<uint32_t, uint32_t, engine::RaceClass, engine::Hazard, uint32_t, uint32_t, uint32_t, uint32_t>;
using DiagnosticKey = std::tuple<engine::DiagnosticKind, uint32_t, uint32_t, std::string>;

struct Verdicts {
  std::set<RaceKey> races;
  std::set<DiagnosticKey> diagnostics;
  uint64_t records = 0;
};

Verdicts check(const engine::LaunchInfo& launch, std::span<const RecordHeader> slots) {
  const std::unique_ptr<engine::Engine> checked = checked_by_engine(launch, slots);
  const engine::Engine& engine = *checked;
  EXPECT_EQ(engine.stats().malformed_records, 0u);
  Verdicts verdicts;
  for (const engine::Race& race : engine.races()) {
    verdicts.races.insert({raw(race.first_site), raw(race.second_site), race.race_class, race.hazard,
                           raw(race.first_thread.block), race.first_thread.thread, raw(race.second_thread.block),
                           race.second_thread.thread});
  }
  for (const engine::Diagnostic& d : engine.diagnostics()) {
    // Launches that count their barriers never warn about redundant ones (the option turns counting off).
    if (d.kind == engine::DiagnosticKind::kRedundantBarrier) continue;
    verdicts.diagnostics.insert({d.kind, raw(d.site), raw(d.block), d.message});
  }
  verdicts.records = engine.stats().records;
  return verdicts;
}

std::string describe(const std::set<DiagnosticKey>& diagnostics) {
  std::ostringstream out;
  for (const auto& [kind, site, block, message] : diagnostics) out << "\n    site " << site << " block " << block << ": " << message;
  return out.str();
}

uint64_t count_ops(std::span<const RecordHeader> slots, RecordOp op) {
  uint64_t n = 0;
  for (size_t i = 0; i < slots.size();) {
    const RecordView record(slots[i], slots.data() + i + 1);
    n += record.op() == op;
    i += record.slot_count();
  }
  return n;
}

TEST(CountedBarriers, OrderTheHostsAccessesAsBarrierRecordsDo) {
  uint64_t racy = 0, barriers = 0, told = 0;
  for (uint64_t seed = 0; seed < 4000 / kTraceDivisor; ++seed) {
    const MemorySpace space = seed % 2 ? MemorySpace::kGlobal : MemorySpace::kShared;
    const BarrierOnlyTrace trace = make_barrier_only_trace(seed, space);
    const std::vector<RecordHeader> counted = count_barriers_on_device(trace.launch, trace.slots);
    ASSERT_EQ(count_ops(counted, RecordOp::kBarrier), 0u);
    ASSERT_EQ(count_ops(counted, RecordOp::kWarpExit), 0u);
    barriers += count_ops(trace.slots, RecordOp::kBarrier);
    told += count_ops(counted, RecordOp::kBarriersPassed);
    const Verdicts host = check(trace.launch, trace.slots);
    const Verdicts device = check(trace.launch, counted);
    racy += !host.races.empty();
    ASSERT_EQ(host.races, device.races) << "seed " << seed;
    ASSERT_EQ(host.diagnostics, device.diagnostics) << "seed " << seed << "\n  engine:" << describe(host.diagnostics)
                                                    << "\n  counted:" << describe(device.diagnostics);
  }
  EXPECT_GT(racy, 1000u / kTraceDivisor);
  EXPECT_GT(told, 0u);
  EXPECT_GT(barriers, 0u);
}

// A block of lane groups (a warp, or half of one under independent thread scheduling), each passing a
// number of barriers of its own, at its own sites, with accesses between, exiting at the end; the
// groups' records interleave at random, as divergent code may log them.
struct DivergentTrace {
  engine::LaunchInfo launch;
  std::vector<RecordHeader> slots;
};

DivergentTrace make_divergent_trace(uint64_t seed) {
  std::mt19937_64 rng(seed);
  const auto pick = [&](uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(rng); };
  DivergentTrace trace;
  trace.launch.launch_id = 3;
  trace.launch.kernel = "divergent";
  trace.launch.grid = {pick(1, 2), 1, 1};
  trace.launch.block = {pick(1, 96), 1, 1};
  const uint32_t warps = trace.launch.warps_per_block();
  for (uint32_t block = 0; block < trace.launch.grid.x; ++block) {
    struct Group {
      uint32_t warp, mask;
      std::vector<RecordHeader> records;
      size_t next = 0;
    };
    std::vector<Group> groups;
    const uint32_t usual = pick(0, 3);
    for (uint32_t w = 0; w < warps; ++w) {
      const uint32_t lanes = std::min<uint32_t>(32, trace.launch.block.x - w * 32);
      const uint32_t live = lanes == 32 ? ~0u : (1u << lanes) - 1;
      const uint32_t split = pick(0, 3) == 0 ? static_cast<uint32_t>(rng()) & live : 0;
      for (const uint32_t mask : {live & ~split, split}) {
        if (mask == 0) continue;
        Group group{w, mask, {}, 0};
        const uint32_t barriers = pick(0, 4) == 0 ? pick(0, 4) : usual;  // most groups agree
        const auto header = [&](RecordOp op, uint32_t site) { return trace_header(op, block, w, mask, site, 3); };
        for (uint32_t b = 0; b <= barriers; ++b) {
          if (pick(0, 1)) {
            RecordHeader access = header(pick(0, 1) ? RecordOp::kStore : RecordOp::kLoad, 1 + pick(0, 2));
            access.space_sem = pack_space_sem(MemorySpace::kShared, MemorySemantics::kWeak, MemoryScope::kCta);
            access.size_mode = pack_size_mode(2, AddressMode::kAffine);
            access.base = 4 * pick(0, 3);
            group.records.push_back(access);
          }
          if (b < barriers) group.records.push_back(header(RecordOp::kBarrier, 10 + pick(0, 1)));
        }
        group.records.push_back(header(RecordOp::kWarpExit, 20));
        groups.push_back(std::move(group));
      }
    }
    for (;;) {
      std::vector<Group*> ready;
      for (Group& g : groups) {
        if (g.next < g.records.size()) ready.push_back(&g);
      }
      if (ready.empty()) break;
      Group& g = *ready[pick(0, static_cast<uint32_t>(ready.size() - 1))];
      trace.slots.push_back(g.records[g.next++]);
    }
  }
  return trace;
}

TEST(CountedBarriers, FindTheBarrierDivergencesTheEngineFinds) {
  uint64_t diverged = 0;
  for (uint64_t seed = 0; seed < 20000 / kTraceDivisor; ++seed) {
    const DivergentTrace trace = make_divergent_trace(seed);
    const std::vector<RecordHeader> counted = count_barriers_on_device(trace.launch, trace.slots);
    const Verdicts host = check(trace.launch, trace.slots);
    const Verdicts device = check(trace.launch, counted);
    diverged += !host.diagnostics.empty();
    ASSERT_EQ(host.diagnostics, device.diagnostics) << "seed " << seed << "\n  engine:" << describe(host.diagnostics)
                                                    << "\n  counted:" << describe(device.diagnostics);
  }
  EXPECT_GT(diverged, 2000u / kTraceDivisor) << "the generator must make barriers diverge";
}

// ---- the rule, step by step ------------------------------------------------------------------------

TEST(BlockBarrierState, PacksWithTheLaunchTagAndStartsFreshUnderAnother) {
  const BlockBarrierState state{5, 31, 1024};
  const uint64_t word = pack_block_barrier_state(7, state);
  const BlockBarrierState back = unpack_block_barrier_state(word, 7, 1024);
  EXPECT_EQ(back.completed, 5u);
  EXPECT_EQ(back.waiting, 31u);
  EXPECT_EQ(back.live, 1024u);
  const BlockBarrierState fresh = unpack_block_barrier_state(word, 8, 96);
  EXPECT_EQ(fresh.completed, 0u);
  EXPECT_EQ(fresh.waiting, 0u);
  EXPECT_EQ(fresh.live, 96u);
}

TEST(BlockBarrierState, CompletesWhenEveryLiveThreadArrived) {
  BarrierStep step = arrive_at_block_barrier({0, 0, 64}, 0, 32);
  EXPECT_EQ(step.divergence, BarrierDivergence::kNone);
  EXPECT_EQ(step.state.waiting, 32u);
  step = arrive_at_block_barrier(step.state, 0, 32);
  EXPECT_EQ(step.divergence, BarrierDivergence::kNone);
  EXPECT_EQ(step.state.completed, 1u);
  EXPECT_EQ(step.state.waiting, 0u);
}

TEST(BlockBarrierState, AThreadGoingOnBeforeTheBarrierCompletedWasLetThrough) {
  const BarrierStep first = arrive_at_block_barrier({0, 0, 64}, 0, 32);
  const BarrierStep again = arrive_at_block_barrier(first.state, 1, 32);  // passed barrier 1 alone
  EXPECT_EQ(again.divergence, BarrierDivergence::kLetThrough);
  EXPECT_EQ(again.state.completed, 1u);
  EXPECT_EQ(again.state.waiting, 32u);
}

TEST(BlockBarrierState, ExitingWhileOthersWaitDiverges) {
  const BarrierStep waiting = arrive_at_block_barrier({0, 0, 64}, 0, 32);
  const BarrierStep exit = exit_block_lanes(waiting.state, 0, 32);
  EXPECT_EQ(exit.divergence, BarrierDivergence::kExitedWhileWaiting);
  EXPECT_EQ(exit.state.completed, 1u) << "the exit releases the waiting threads";
  EXPECT_EQ(exit.state.live, 32u);
  const BarrierStep quiet = exit_block_lanes({0, 0, 64}, 0, 32);
  EXPECT_EQ(quiet.divergence, BarrierDivergence::kNone) << "nobody waited";
}

}  // namespace
}  // namespace barracuda::devicecheck::test
