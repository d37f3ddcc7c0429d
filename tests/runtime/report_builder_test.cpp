// The report's findings from an engine run: redundant-barrier warnings only when asked; the memory
// each race names.
#include "runtime/report_builder.h"

#include <gtest/gtest.h>

#include <map>
#include <mutex>

#include "report/fingerprint.h"
#include "runtime/race_allocations.h"
#include "scenario.h"

namespace barracuda::runtime {
namespace {

using engine::Dim3;
using engine::SiteId;
using engine::test::Scenario;
using engine::test::lane;

// Two warps: the first barrier orders a store before a load (useful), the second orders nothing.
void run_one_useful_and_one_redundant_barrier(Scenario& s) {
  constexpr uint64_t kX = 0x40000;
  s.warp(0, 0).store(lane(0), kX);
  s.warp(0, 0).barrier();
  s.warp(0, 1).barrier();
  s.warp(0, 1).load(lane(0), kX);
  s.warp(0, 0).barrier();
  s.warp(0, 1).barrier();
  s.run();
}

// Registers 64 sites, all at `info` (one source position) but those `elsewhere` names.
void register_sites_at(SiteRegistry& sites, const trace::SiteInfo& info,
                       const std::map<size_t, trace::SiteInfo>& elsewhere = {}) {
  trace::ModuleTable table;
  table.site_base = 0;
  table.sites.assign(64, info);
  for (const auto& [site, other] : elsewhere) table.sites[site] = other;
  sites.add(table);
}

const LaunchLookup no_launches = [](const std::string&) { return std::optional<LaunchRecord>(); };

size_t redundant_barriers(const report::Report& report) {
  size_t count = 0;
  for (const report::Diagnostic& d : report.diagnostics) count += d.kind == report::DiagnosticKind::kRedundantBarrier;
  return count;
}

TEST(AddFindings, RedundantBarrierWarningsOnlyWhenAsked) {
  Scenario s(Dim3{1, 1, 1}, Dim3{64, 1, 1});
  run_one_useful_and_one_redundant_barrier(s);
  SiteRegistry sites;
  report::Report quiet, asked;
  add_findings(quiet, s.engine(), sites, no_launches, {});
  add_findings(asked, s.engine(), sites, no_launches, {.redundant_barriers = true});
  EXPECT_EQ(redundant_barriers(quiet), 0u);
  EXPECT_EQ(redundant_barriers(asked), 1u);
  EXPECT_TRUE(quiet.races.empty());
}

// The same run with every site in a CUDA toolkit header (cooperative groups, CUB): its warnings are left
// out unless toolkit diagnostics are asked for.
TEST(AddFindings, DiagnosticsInToolkitHeadersOnlyWhenAsked) {
  Scenario s(Dim3{1, 1, 1}, Dim3{64, 1, 1});
  run_one_useful_and_one_redundant_barrier(s);
  SiteRegistry sites;
  register_sites_at(sites, {"_Z6kernelv", 1, "/usr/local/cuda/include/cooperative_groups/details/sync.h", 7, 1});
  report::Report library_quiet, asked;
  add_findings(library_quiet, s.engine(), sites, no_launches, {.redundant_barriers = true});
  add_findings(asked, s.engine(), sites, no_launches, {.redundant_barriers = true, .toolkit_diagnostics = true});
  EXPECT_EQ(redundant_barriers(library_quiet), 0u);
  EXPECT_EQ(redundant_barriers(asked), 1u);
}

// Blocks 0 and 1 both store to kFlag with no synchronisation: `first` and `second` are the values their
// stores wrote (one value per record, as the device flags it), or nullopt for a store whose lanes
// wrote several values.
report::Report flag_stores(std::optional<uint32_t> first, std::optional<uint32_t> second, FindingOptions options = {}) {
  constexpr uint64_t kFlag = 0x30000;
  Scenario s(Dim3{2, 1, 1}, Dim3{32, 1, 1});
  const auto store = [&](uint32_t block, std::optional<uint32_t> value) {
    if (value) {
      s.warp(block, 0).store(engine::test::kAllLanes, kFlag, static_cast<int32_t>(*value), {.flags = kFlagSameValue | kFlagUniformValue});
    } else {
      s.warp(block, 0).store(lane(0), kFlag);
    }
  };
  store(0, first);
  store(1, second);
  s.run();
  report::Report report;
  add_findings(report, s.engine(), SiteRegistry{}, no_launches,
               options);
  return report;
}

TEST(AddFindings, ASameValueWriteWriteIsItsOwnWarningClass) {
  const report::Report same = flag_stores(1, 1);
  ASSERT_EQ(same.races.size(), 1u);
  EXPECT_TRUE(same.races[0].same_value);
  EXPECT_EQ(same.races[0].hazard, report::Hazard::kWriteAfterWrite);
  EXPECT_FALSE(flag_stores(1, 1, {.same_value_races = true}).races[0].same_value) << "the option makes it a race";
}

// A race inside an inlined device function is reported at the function's own line, with the kernel's
// call as the frame it was inlined into; inside a toolkit header (atomicAdd), at the user's call.
TEST(AddFindings, AccessesInInlinedFunctionsNameTheirOwnLineAndTheCallSite) {
  for (const bool in_toolkit : {false, true}) {
    const std::string inner_file = in_toolkit ? "/usr/local/cuda/include/sm_60_atomic_functions.hpp" : "/src/helpers.cuh";
    SiteRegistry sites;
    register_sites_at(sites, {"_Z6kernelv", 1, "/src/kernel.cu", 51, 3, inner_file, 31, 5});
    Scenario s(Dim3{2, 1, 1}, Dim3{32, 1, 1});
    s.warp(0, 0).store(lane(0), 0x30000);
    s.warp(1, 0).store(lane(0), 0x30000);
    s.run();
    report::Report report;
    add_findings(report, s.engine(), sites, no_launches, {});
    ASSERT_EQ(report.races.size(), 1u);
    const report::Site& site = report.races[0].current.site;
    if (in_toolkit) {
      EXPECT_EQ(site.source, (report::SourceLocation{"/src/kernel.cu", 51, 3}));
      EXPECT_TRUE(site.inlined_at.empty());
    } else {
      EXPECT_EQ(site.source, (report::SourceLocation{"/src/helpers.cuh", 31, 5}));
      ASSERT_EQ(site.inlined_at.size(), 1u);
      EXPECT_EQ(site.inlined_at[0].location, (report::SourceLocation{"/src/kernel.cu", 51, 3}));
    }
  }
}

// Two blocks store to two words, each word from two instructions of one source line (a loop the
// compiler unrolled): one finding, seen as often as the two pairs together; a third instruction on
// another line is a finding of its own.
TEST(AddFindings, RacesOfInstructionsAtOneSourcePositionAreOneFinding) {
  SiteRegistry sites;
  register_sites_at(sites, {"_Z6kernelv", 1, "/src/kernel.cu", 12, 5}, {{9, {"_Z6kernelv", 1, "/src/kernel.cu", 14, 5}}});
  Scenario s(Dim3{2, 1, 1}, Dim3{32, 1, 1});
  const SiteId unrolled_first = s.warp(0, 0).store(lane(0), 0x30000);
  const SiteId unrolled_second = s.warp(0, 0).store(lane(0), 0x30004);
  s.warp(1, 0).store(lane(0), 0x30000, 4, {.site = unrolled_first});
  s.warp(1, 0).store(lane(0), 0x30004, 4, {.site = unrolled_second});
  s.warp(0, 0).store(lane(0), 0x30008, 4, {.site = SiteId{9}});
  s.warp(1, 0).store(lane(0), 0x30008, 4, {.site = SiteId{9}});
  s.run();
  ASSERT_NE(unrolled_first, unrolled_second);
  ASSERT_EQ(s.engine().races().size(), 3u) << "the engine keeps one race per instruction pair";
  uint64_t unrolled_count = 0;
  for (const engine::Race& race : s.engine().races()) unrolled_count += race.second_site != SiteId{9} ? race.count : 0;
  report::Report report;
  add_findings(report, s.engine(), sites, no_launches, {});
  ASSERT_EQ(report.races.size(), 2u);
  uint32_t at_line_12 = 0;
  for (const report::Race& race : report.races) {
    if (race.current.site.source.line != 12) continue;
    ++at_line_12;
    EXPECT_EQ(race.dynamic_count, unrolled_count);
  }
  EXPECT_EQ(at_line_12, 1u);
}

// An atomic-plain race names which access was the atomic and whether the plain one read or wrote (its
// hazard names neither): a plain read before an atomic of another block, and an atomic before a plain
// read, are one finding seen in two orders, with one fingerprint.
TEST(AddFindings, AnAtomicPlainRaceNamesTheAtomicAndWhatThePlainAccessDid) {
  SiteRegistry sites;
  register_sites_at(sites, {"_Z6kernelv", 1, "/src/kernel.cu", 12, 5}, {{2, {"_Z6kernelv", 1, "/src/kernel.cu", 14, 5}}});
  std::vector<std::string> fingerprints;
  for (const bool read_first : {true, false}) {
    Scenario s(Dim3{2, 1, 1}, Dim3{32, 1, 1});
    const engine::test::AccessOptions read{.site = SiteId{1}};
    const engine::test::AccessOptions add{.site = SiteId{2}};
    if (read_first) s.warp(0, 0).load(lane(0), 0x30000, 4, read);
    s.warp(1, 0).atomic(lane(0), 0x30000, 4, add);
    if (!read_first) s.warp(0, 0).load(lane(0), 0x30000, 4, read);
    s.run();
    report::Report report;
    add_findings(report, s.engine(), sites, no_launches, {});
    ASSERT_EQ(report.races.size(), 1u);
    const report::Race& race = report.races[0];
    ASSERT_EQ(race.hazard, report::Hazard::kAtomicPlain);
    const report::Access& plain = read_first ? race.previous : race.current;
    const report::Access& atomic = read_first ? race.current : race.previous;
    EXPECT_EQ(plain.kind, report::AccessOperation::kRead);
    EXPECT_EQ(plain.site.source.line, 12u);
    EXPECT_EQ(atomic.kind, report::AccessOperation::kAtomic);
    EXPECT_EQ(atomic.site.source.line, 14u);
    fingerprints.push_back(report::race_fingerprint(race));
  }
  EXPECT_EQ(fingerprints[0], fingerprints[1]);
}

// Two barriers that order nothing, at one source line (an unrolled loop): one warning.
TEST(AddFindings, DiagnosticsOfInstructionsAtOneSourcePositionAreOneFinding) {
  Scenario s(Dim3{1, 1, 1}, Dim3{64, 1, 1});
  for (int round = 0; round < 2; ++round) {
    s.warp(0, 0).barrier();
    s.warp(0, 1).barrier();
  }
  s.run();
  SiteRegistry sites;
  register_sites_at(sites, {"_Z6kernelv", 1, "/src/kernel.cu", 20, 3});
  report::Report by_instruction, by_position;
  add_findings(by_instruction, s.engine(), SiteRegistry{}, no_launches, {.redundant_barriers = true});
  add_findings(by_position, s.engine(), sites, no_launches, {.redundant_barriers = true});
  EXPECT_EQ(redundant_barriers(by_instruction), 2u) << "two barrier instructions, no source positions";
  EXPECT_EQ(redundant_barriers(by_position), 1u);
}

TEST(AddFindings, DifferentOrUnknownValuesStillRace) {
  ASSERT_EQ(flag_stores(1, 2).races.size(), 1u);
  EXPECT_FALSE(flag_stores(1, 2).races[0].same_value);
  EXPECT_FALSE(flag_stores(1, std::nullopt).races[0].same_value);
}

// hist[bin]++ by two blocks: both stored 1, but each read the word the other wrote: the read could see
// the location between the writes, so the write-write stays a race.
TEST(AddFindings, AWriteWriteARacingReadObservedIsNotSameValue) {
  constexpr uint64_t kBin = 0x30000;
  Scenario s(Dim3{2, 1, 1}, Dim3{32, 1, 1});
  for (uint32_t block = 0; block < 2; ++block) {
    s.warp(block, 0).load(lane(0), kBin);
    s.warp(block, 0).store(lane(0), kBin, 1, {.flags = kFlagSameValue | kFlagUniformValue});
  }
  s.run();
  report::Report report;
  add_findings(report, s.engine(), SiteRegistry{}, no_launches, {});
  bool write_write = false;
  for (const report::Race& race : report.races) {
    EXPECT_FALSE(race.same_value);
    write_write |= race.hazard == report::Hazard::kWriteAfterWrite;
  }
  EXPECT_TRUE(write_write);
}

TEST(RunStatistics, TakeEachFigureFromItsSource) {
  LaunchTotals launches;
  launches.slots = 7;
  launches.drain_threads = 15;
  launches.launches_global_on_device = 2;
  engine::EngineStats engine;
  engine.thread_accesses = 99;
  InstrumentationTotals modules;
  modules.compiled = 3;
  modules.cached = 4;
  const report::Statistics statistics = run_statistics(launches, engine, modules, QueueMemory{1024, 64});
  EXPECT_EQ(statistics.slots, 7u);
  EXPECT_EQ(statistics.drain_threads, 15u);
  EXPECT_EQ(statistics.launches_global_on_device, 2u);
  EXPECT_EQ(statistics.engine_thread_accesses, 99u);
  EXPECT_EQ(statistics.modules_instrumented, 7u);
  EXPECT_EQ(statistics.cache_misses, 3u);
  EXPECT_EQ(statistics.cache_hits, 4u);
  EXPECT_EQ(statistics.queue_host_bytes, 1024u);
  EXPECT_EQ(statistics.queue_device_bytes, 64u);
}

TEST(StoreValues, ASiteIsConstantOnlyWhileEveryRecordStoredTheSameValue) {
  engine::StoreValues values;
  const auto site = static_cast<engine::SiteId>(7);
  EXPECT_FALSE(values.constant(site));
  values.note(site, 1);
  values.note(site, 1);
  EXPECT_EQ(values.constant(site), 1u);
  engine::StoreValues other;
  other.note(site, 2);
  values.merge(other);
  EXPECT_FALSE(values.constant(site)) << "two workers saw two values";
  engine::StoreValues varying;
  varying.note(site, std::nullopt);
  EXPECT_FALSE(varying.constant(site));
}

// Block 0 publishes data with __threadfence() + atomicExch(flag); block 1 spins on atomicExch(flag)
// and reads the data with no fence after the spin: the warning class "unfenced acquire", naming the
// spin and the missing fence, unless unfenced_acquire_races makes it a race.
report::Report unfenced_hand_off(FindingOptions options = {}) {
  constexpr uint64_t kData = 0x20000, kFlag = 0x30000;
  const engine::test::AccessOptions legacy{.sem = MemorySemantics::kLegacy, .scope = MemoryScope::kGpu};
  Scenario s(Dim3{2, 1, 1}, Dim3{32, 1, 1});
  s.warp(0, 0).store(lane(0), kData);
  s.warp(0, 0).fence(MemorySemantics::kLegacy, MemoryScope::kGpu, lane(0));
  s.warp(0, 0).atomic(lane(0), kFlag, 4, legacy);
  s.warp(1, 0).atomic(lane(0), kFlag, 4, legacy);
  s.warp(1, 0).load(lane(0), kData);
  s.run();
  report::Report report;
  add_findings(report, s.engine(), SiteRegistry{}, no_launches,
               options);
  return report;
}

TEST(AddFindings, AnUnfencedAcquireIsItsOwnWarningClass) {
  const report::Report warned = unfenced_hand_off();
  ASSERT_EQ(warned.races.size(), 1u);
  ASSERT_TRUE(warned.races[0].unfenced_acquire);
  EXPECT_EQ(warned.races[0].unfenced_acquire->missing_fence, "__threadfence() after the spin on the flag (there is none)");
  EXPECT_EQ(warned.races[0].race_class, report::RaceClass::kInterBlock);
  const report::Report raced = unfenced_hand_off({.unfenced_acquire_races = true});
  ASSERT_EQ(raced.races.size(), 1u);
  EXPECT_FALSE(raced.races[0].unfenced_acquire) << "the option makes it a race";
}

// Blocks 0 and 1 store to `address` (in `space`) unsynchronised.
void two_blocks_store(Scenario& s, uint64_t address, MemorySpace space = MemorySpace::kGlobal) {
  s.warp(0, 0).store(lane(0), address, 0, {.space = space});
  s.warp(1, 0).store(lane(0), address, 0, {.space = space});
}

TEST(RaceAllocations, NameTheAllocationTheRaceHitWhenItWasFoundNotWhatIsThereAtExit) {
  Scenario s(Dim3{2, 1, 1}, Dim3{32, 1, 1});
  two_blocks_store(s, 0x30010);
  AllocationMap map;
  map.insert({0x30000, 0x100, report::AllocationKind::kMemAlloc, {}, nullptr, {}});
  const SiteRegistry sites;
  RaceAllocations allocations(s.engine(), map, sites);
  s.run();
  allocations.note_new_races();
  // The application frees the buffer and gets its address back for another before exit.
  map.erase_starting_at(0x30000);
  map.insert({0x30000, 0x40, report::AllocationKind::kMemAllocManaged, {}, nullptr, {}});
  report::Report report;
  add_findings(report, s.engine(), SiteRegistry{}, no_launches, {},
               [&](const engine::Race& race) { return allocations.memory_of(race); });
  ASSERT_EQ(report.races.size(), 1u);
  ASSERT_TRUE(report.races[0].allocation);
  EXPECT_EQ(report.races[0].allocation->kind, report::AllocationKind::kMemAlloc);
  EXPECT_EQ(report.races[0].allocation->size, 0x100u);
  EXPECT_EQ(report.races[0].allocation->offset, 0x10u);
}

TEST(RaceAllocations, SayWhenTheAddressIsInNoAllocation) {
  Scenario s(Dim3{2, 1, 1}, Dim3{32, 1, 1});
  two_blocks_store(s, 0x90000);
  AllocationMap map;
  const SiteRegistry sites;
  RaceAllocations allocations(s.engine(), map, sites);
  s.run();
  allocations.note_new_races();
  report::Report report;
  add_findings(report, s.engine(), SiteRegistry{}, no_launches, {},
               [&](const engine::Race& race) { return allocations.memory_of(race); });
  ASSERT_EQ(report.races.size(), 1u);
  EXPECT_EQ(report.races[0].allocation, report::Allocation{});
}

// Both stores' addresses came from parameter 0, which pointed at a 0x100-byte buffer; the race is in
// another one: both accesses are out of bounds through parameter 0. Nothing is claimed where the
// launch's arguments are unknown.
TEST(RaceAllocations, AnAccessOutsideWhatItsParameterPointsIntoIsOutOfBounds) {
  Scenario s(Dim3{2, 1, 1}, Dim3{32, 1, 1});
  two_blocks_store(s, 0x30010);
  SiteRegistry sites;
  register_sites_at(sites, {"scenario", 1, "/src/gather.cu", 8, 3, "", 0, 0, 0});
  AllocationMap map;
  map.insert({0x10000, 0x100, report::AllocationKind::kMemAlloc, {}, nullptr, {}});
  map.insert({0x30000, 0x100, report::AllocationKind::kMemAlloc, {}, nullptr, {}});
  RaceAllocations allocations(s.engine(), map, sites);
  s.run();
  uint64_t pointer = 0x10000;
  void* arguments[] = {&pointer};
  shim::LaunchCall launch{};
  launch.kernel_name = "scenario";
  launch.kernel_params = arguments;
  const LaunchArguments launch_arguments = allocations.arguments_of(launch);
  allocations.note_new_races(&launch_arguments);
  report::Report report;
  add_findings(report, s.engine(), sites, no_launches, {},
               [&](const engine::Race& race) { return allocations.memory_of(race); });
  ASSERT_EQ(report.races.size(), 1u);
  for (const report::Access* access : {&report.races[0].current, &report.races[0].previous}) {
    ASSERT_TRUE(access->out_of_bounds);
    EXPECT_EQ(access->out_of_bounds->parameter, 0u);
    EXPECT_EQ(access->out_of_bounds->pointee.base, 0x10000u);
    EXPECT_EQ(access->out_of_bounds->pointee.size, 0x100u);
  }
  EXPECT_EQ(report.races[0].allocation->base, 0x30000u);
}

// The report counts launches from 0; the engine numbers them from 1 (0: not known, as in a scenario
// that names none).
TEST(AddFindings, EachFindingNamesTheLaunchItWasFirstSeenInCountedFromZero) {
  for (const uint64_t sequence : {0u, 1u, 3u}) {
    Scenario s(Dim3{1, 1, 1}, Dim3{64, 1, 1});
    s.as_launch(sequence);
    s.warp(0, 0).store(lane(0), 0x80, 0, {.space = MemorySpace::kShared});
    s.warp(0, 1).store(lane(0), 0x80, 0, {.space = MemorySpace::kShared});
    s.warp(0, 0).barrier();  // orders nothing after the race: a redundant-barrier warning
    s.warp(0, 1).barrier();
    s.run();
    report::Report report;
    add_findings(report, s.engine(), SiteRegistry{}, no_launches, {.redundant_barriers = true});
    const uint32_t expected = sequence == 0 ? 0 : static_cast<uint32_t>(sequence - 1);
    ASSERT_EQ(report.races.size(), 1u);
    EXPECT_EQ(report.races[0].launch_index, expected) << sequence;
    ASSERT_EQ(report.diagnostics.size(), 1u);
    EXPECT_EQ(report.diagnostics[0].launch_index, expected) << sequence;
  }
}

TEST(AddFindings, SharedMemoryRacesNameTheirBlockAndUntrackedGlobalOnesNothing) {
  Scenario shared(Dim3{1, 1, 1}, Dim3{64, 1, 1});
  shared.warp(0, 0).store(lane(0), 0x80, 0, {.space = MemorySpace::kShared});
  shared.warp(0, 1).store(lane(0), 0x80, 0, {.space = MemorySpace::kShared});
  shared.run();
  report::Report report;
  add_findings(report, shared.engine(), SiteRegistry{}, no_launches, {});
  ASSERT_EQ(report.races.size(), 1u);
  ASSERT_TRUE(report.races[0].allocation);
  EXPECT_EQ(report.races[0].allocation->kind, report::AllocationKind::kShared);
  EXPECT_EQ(report.races[0].allocation->offset, 0x80u);

  Scenario global(Dim3{2, 1, 1}, Dim3{32, 1, 1});
  two_blocks_store(global, 0x30000);
  global.run();
  report::Report replayed;  // `barracuda replay`: no allocations were tracked
  add_findings(replayed, global.engine(), SiteRegistry{}, no_launches, {});
  ASSERT_EQ(replayed.races.size(), 1u);
  EXPECT_FALSE(replayed.races[0].allocation);
}

}  // namespace
}  // namespace barracuda::runtime
