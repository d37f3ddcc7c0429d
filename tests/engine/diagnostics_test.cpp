// Barrier divergence, redundant barriers and malformed input.
#include <gtest/gtest.h>

#include <cstring>

#include "engine/diagnostic_log.h"
#include "scenario.h"

namespace barracuda::engine::test {
namespace {

constexpr uint64_t kX = 0x40000;
constexpr uint64_t kY = 0x40100;  // a flag
const Dim3 kOneBlock{1, 1, 1};
const Dim3 kTwoWarps{64, 1, 1};

TEST(Diagnostics, EachNamesTheLaunchItWasFirstSeenIn) {
  DiagnosticLog log;
  for (const uint64_t launch : {3u, 5u}) {
    DiagnosticLog of_launch;
    of_launch.add(DiagnosticKind::kRedundantBarrier, SiteId{7}, BlockId{0}, "barrier ordered nothing");
    if (launch == 5) of_launch.add(DiagnosticKind::kBarrierDivergence, SiteId{8}, BlockId{1}, "lanes never arrived");
    log.merge(std::move(of_launch), "k", LaunchSeq{launch});
  }
  const std::vector<Diagnostic> diagnostics = log.diagnostics();
  ASSERT_EQ(diagnostics.size(), 2u);
  for (const Diagnostic& d : diagnostics) {
    EXPECT_EQ(d.launch, d.site == SiteId{7} ? LaunchSeq{3} : LaunchSeq{5});
    EXPECT_EQ(d.count, d.site == SiteId{7} ? 2u : 1u);
  }
}

TEST(Diagnostics, WarpExitingBeforeTheBarrierIsDivergence) {
  Scenario s(kOneBlock, kTwoWarps);
  const SiteId bar = s.warp(0, 0).barrier();
  s.warp(0, 1).exit();
  s.run();
  EXPECT_TRUE(s.has_diagnostic(DiagnosticKind::kBarrierDivergence, bar));
}

TEST(Diagnostics, LanesExitingSeparatelyEndTheWarpOnlyTogether) {
  // Under independent thread scheduling each converged group of lanes logs its own exit record; a lane
  // still running after the others exited is checked as usual (the store below races with block 1).
  Scenario s(Dim3{2, 1, 1}, kTwoWarps);
  s.warp(0, 0).exit(~lane(0));
  const SiteId late = s.warp(0, 0).store(lane(0), kX);
  s.warp(0, 0).exit(lane(0));
  const SiteId other = s.warp(1, 0).store(lane(0), kX);
  s.run();
  EXPECT_TRUE(s.race(late, other));
  EXPECT_EQ(s.stats().malformed_records, 0u);
}

TEST(Diagnostics, LanesThatNeverArriveAreDivergence) {
  Scenario s(kOneBlock, kTwoWarps);
  const SiteId bar = s.warp(0, 0).barrier(0xFFFF);
  s.warp(0, 1).barrier();
  s.warp(0, 0).store(lane(0), kX);  // lane 0 went on: the barrier released it
  s.run();
  EXPECT_TRUE(s.has_diagnostic(DiagnosticKind::kBarrierDivergence, bar));
}

TEST(Diagnostics, IndependentLanesMayArriveSeparately) {
  Scenario s(kOneBlock, kTwoWarps);
  s.warp(0, 0).barrier(0xFFFF);
  s.warp(0, 0).barrier(0xFFFF0000);
  s.warp(0, 1).barrier();
  s.run();
  for (const Diagnostic& d : s.diagnostics()) EXPECT_NE(d.kind, DiagnosticKind::kBarrierDivergence);
}

TEST(Diagnostics, LockstepBarrierWithInactiveLanesIsDivergence) {
  Scenario s(kOneBlock, kTwoWarps, WarpModel::kLockstep);
  const SiteId bar = s.warp(0, 0).barrier(0xFFFF);
  s.warp(0, 0).barrier(0xFFFF0000);
  s.warp(0, 1).barrier();
  s.run();
  EXPECT_TRUE(s.has_diagnostic(DiagnosticKind::kBarrierDivergence, bar));
}

TEST(Diagnostics, BarrierOrderingNothingIsRedundant) {
  Scenario s(kOneBlock, kTwoWarps);
  s.warp(0, 0).store(lane(0), kX);
  const SiteId useful0 = s.warp(0, 0).barrier();
  s.warp(0, 1).barrier();
  s.warp(0, 1).load(lane(0), kX);
  const SiteId redundant0 = s.warp(0, 0).barrier();
  s.warp(0, 1).barrier();
  s.warp(0, 1).load(lane(0), kX + 4);
  s.run();
  EXPECT_FALSE(s.has_diagnostic(DiagnosticKind::kRedundantBarrier, useful0));
  EXPECT_TRUE(s.has_diagnostic(DiagnosticKind::kRedundantBarrier, redundant0));
  EXPECT_TRUE(s.races().empty());
}

// A barrier between ldmatrix or wmma.load and the stores they read orders accesses the engine never
// sees: in a kernel that holds such instructions no barrier is called redundant.
TEST(Diagnostics, NoBarrierIsRedundantWhereAccessesAreNotLogged) {
  Scenario s(kOneBlock, kTwoWarps);
  s.with_unlogged_accesses();
  s.warp(0, 0).store(lane(0), kX);
  const SiteId barrier = s.warp(0, 0).barrier();
  s.warp(0, 1).barrier();
  s.run();
  EXPECT_FALSE(s.has_diagnostic(DiagnosticKind::kRedundantBarrier, barrier));
}

// A write into a buffer whose loads through a read-only parameter the device left unlogged may race
// with loads the engine never saw: each such lane write is counted (the report then says the launch
// was not fully checked); writes elsewhere and loads there are not.
TEST(Diagnostics, WritesIntoUnloggedLoadsAreCounted) {
  Scenario s(kOneBlock, kTwoWarps);
  s.with_unlogged_loads(0x10000, 0x10100);
  s.warp(0, 0).store(lane(0) | lane(1), 0x100F8);  // 0x100F8 inside, 0x100FC inside
  s.warp(0, 0).store(lane(2), 0x10100);             // lane 2 at 0x10108: past the end
  s.warp(0, 1).load(lane(0), 0x10000);
  s.run();
  EXPECT_EQ(s.stats().writes_into_unlogged_loads, 2u);
}

// cooperative_groups::this_grid().sync(): __syncthreads, one thread releases its block's work to the
// others at device scope and acquires theirs, __syncthreads. The accesses it orders are in different
// blocks (through the release and the acquire), yet neither barrier may be called redundant.
TEST(Diagnostics, BarriersOfAGridWideSyncAreNotRedundant) {
  Scenario s(Dim3{2, 1, 1}, kTwoWarps);
  const AccessOptions release{.sem = MemorySemantics::kRelease, .scope = MemoryScope::kGpu};
  const AccessOptions acquire{.sem = MemorySemantics::kAcquire, .scope = MemoryScope::kGpu};
  s.warp(0, 1).store(lane(0), kX);
  const SiteId before = s.warp(0, 0).barrier();
  s.warp(0, 1).barrier();
  s.warp(0, 0).atomic(lane(0), kY, 4, release);
  s.warp(1, 0).atomic(lane(0), kY, 4, acquire);
  const SiteId after = s.warp(1, 0).barrier();
  s.warp(1, 1).barrier();
  s.warp(1, 1).load(lane(0), kX);
  // A barrier with no synchronisation beyond the block around it stays redundant.
  const SiteId alone = s.warp(1, 0).barrier();
  s.warp(1, 1).barrier();
  s.run();
  EXPECT_FALSE(s.has_diagnostic(DiagnosticKind::kRedundantBarrier, before));
  EXPECT_FALSE(s.has_diagnostic(DiagnosticKind::kRedundantBarrier, after));
  EXPECT_TRUE(s.has_diagnostic(DiagnosticKind::kRedundantBarrier, alone));
  EXPECT_TRUE(s.races().empty());
}

TEST(Diagnostics, RecordsAfterTheBlockExitedAreMalformed) {
  Scenario s(kOneBlock, Dim3{32, 1, 1});
  s.warp(0, 0).exit();
  s.warp(0, 0).store(lane(0), kX);
  s.run();
  EXPECT_EQ(s.stats().malformed_records, 1u);
  EXPECT_EQ(s.stats().thread_accesses, 0u);
}

TEST(Diagnostics, MalformedRecordsAreSkippedAndCounted) {
  Scenario s(kOneBlock, kTwoWarps);
  s.warp(0, 0).store(lane(0), kX);
  s.run();
  Engine engine(EngineConfig{1});
  LaunchInfo launch;
  launch.launch_id = 1;
  launch.block = kTwoWarps;
  engine.begin_launch(launch);
  std::vector<RecordHeader> slots(4);
  slots[0].op = 99;  // unknown
  slots[1].op = static_cast<uint8_t>(RecordOp::kStore);
  slots[1].launch_id = 1;
  slots[1].block_id = 5;  // outside the grid
  slots[1].active_mask = 1;
  slots[2].op = static_cast<uint8_t>(RecordOp::kLoad);
  slots[2].launch_id = 1;
  slots[2].size_mode = pack_size_mode(2, AddressMode::kFull64);  // payload cut off
  slots[2].active_mask = 1;
  engine.worker(0).consume(slots);
  engine.end_launch();
  EXPECT_EQ(engine.stats().malformed_records, 3u);
  EXPECT_EQ(engine.stats().records, 2u);
  EXPECT_TRUE(engine.races().empty());
}

}  // namespace
}  // namespace barracuda::engine::test
