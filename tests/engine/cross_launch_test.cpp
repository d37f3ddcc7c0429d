// Races between launches that may run concurrently (other streams, nothing ordering them).
#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <string>
#include <vector>

#include "engine/engine.h"

namespace barracuda::engine {
namespace {

constexpr uint64_t kX = 0x20000;

LaunchInfo launch(uint64_t sequence, std::string kernel, std::vector<LaunchSeq> concurrent_with,
                  std::vector<LaunchSeq> still_open, bool may_overlap_later, uint32_t blocks = 2) {
  LaunchInfo info;
  info.launch_id = static_cast<uint16_t>(sequence);
  info.kernel = std::move(kernel);
  info.grid = {blocks, 1, 1};
  info.block = {64, 1, 1};
  info.order = {LaunchSeq{sequence}, std::move(concurrent_with), std::move(still_open), may_overlap_later};
  return info;
}

RecordHeader access(RecordOp op, const LaunchInfo& info, uint32_t block, uint32_t warp, uint32_t site,
                    MemorySemantics sem = MemorySemantics::kWeak, MemoryScope scope = MemoryScope::kGpu) {
  RecordHeader h{};
  h.op = static_cast<uint8_t>(op);
  h.active_mask = 1;
  h.block_id = block;
  h.warp_id = static_cast<uint16_t>(warp);
  h.launch_id = info.launch_id;
  h.site_id = site;
  h.space_sem = pack_space_sem(MemorySpace::kGlobal, sem, scope);
  h.size_mode = pack_size_mode(2, AddressMode::kAffine);
  h.base = kX;
  return h;
}

void run(Engine& engine, const LaunchInfo& info, std::vector<RecordHeader> records) {
  engine.begin_launch(info);
  engine.worker(0).consume(records);
  engine.end_launch();
}

const LaunchSeq kFirst{1}, kSecond{2};

TEST(CrossLaunch, ConcurrentLaunchesWritingOneWordRace) {
  Engine engine(EngineConfig{1});
  const LaunchInfo a = launch(1, "fill_a", {}, {}, true, 4);
  run(engine, a, {access(RecordOp::kStore, a, 3, 1, 11)});
  EXPECT_EQ(engine.remembered_launches(), 1u);
  const LaunchInfo b = launch(2, "fill_b", {kFirst}, {kFirst}, true);
  run(engine, b, {access(RecordOp::kStore, b, 0, 0, 22)});
  const std::vector<Race> races = engine.races();
  ASSERT_EQ(races.size(), 1u);
  EXPECT_EQ(races[0].kernel, "fill_b");
  EXPECT_EQ(races[0].first_kernel, "fill_a");
  EXPECT_EQ(races[0].hazard, Hazard::kWriteAfterWrite);
  EXPECT_EQ(races[0].race_class, RaceClass::kInterBlock);
  EXPECT_EQ(races[0].first_site, SiteId{11});
  EXPECT_EQ(races[0].second_site, SiteId{22});
  EXPECT_EQ(races[0].first_thread, (ThreadCoord{BlockId{3}, 32}));
  EXPECT_EQ(races[0].second_thread, (ThreadCoord{BlockId{0}, 0}));
  EXPECT_EQ(races[0].address, kX);
}

// The report's launch_index: each entry names the launch it was first seen in, however often later
// launches repeat it.
TEST(CrossLaunch, EachRaceNamesTheLaunchItWasFirstSeenIn) {
  Engine engine(EngineConfig{1});
  const LaunchInfo first = launch(1, "fill", {}, {}, false);
  run(engine, first, {access(RecordOp::kStore, first, 0, 0, 11), access(RecordOp::kStore, first, 1, 0, 12)});
  const LaunchInfo clean = launch(2, "fill", {}, {}, false);
  run(engine, clean, {access(RecordOp::kStore, clean, 0, 0, 11)});
  const LaunchInfo third = launch(3, "fill", {}, {}, false);
  run(engine, third, {access(RecordOp::kStore, third, 0, 0, 11), access(RecordOp::kStore, third, 1, 0, 12),
                      access(RecordOp::kLoad, third, 1, 1, 13)});
  const std::vector<Race> races = engine.races();
  ASSERT_EQ(races.size(), 2u);
  for (const Race& race : races) {
    const bool repeated = race.second_site == SiteId{12};
    EXPECT_EQ(race.launch, repeated ? kFirst : LaunchSeq{3}) << raw(race.second_site);
    EXPECT_EQ(race.count, repeated ? 2u : 1u);
  }
}

TEST(CrossLaunch, OrderedLaterLaunchDoesNotRace) {
  Engine engine(EngineConfig{1});
  const LaunchInfo a = launch(1, "fill_a", {}, {}, true);
  run(engine, a, {access(RecordOp::kStore, a, 0, 0, 11)});
  // Same stream, or an event wait: still open for a third launch, but ordered before this one.
  const LaunchInfo b = launch(2, "fill_b", {}, {kFirst}, false);
  run(engine, b, {access(RecordOp::kStore, b, 0, 0, 22)});
  EXPECT_TRUE(engine.races().empty());
  EXPECT_EQ(engine.remembered_launches(), 1u);
}

TEST(CrossLaunch, SynchronisationForgetsRememberedLaunches) {
  Engine engine(EngineConfig{1});
  const LaunchInfo a = launch(1, "fill_a", {}, {}, true);
  run(engine, a, {access(RecordOp::kStore, a, 0, 0, 11)});
  const LaunchInfo b = launch(2, "fill_b", {}, {}, false);
  run(engine, b, {access(RecordOp::kStore, b, 0, 0, 22)});
  EXPECT_EQ(engine.remembered_launches(), 0u);
  EXPECT_TRUE(engine.races().empty());
}

TEST(CrossLaunch, LaunchOrderedBeforeEverythingLaterIsNotRemembered) {
  Engine engine(EngineConfig{1});
  const LaunchInfo a = launch(1, "fill_a", {}, {}, false);
  run(engine, a, {access(RecordOp::kStore, a, 0, 0, 11)});
  EXPECT_EQ(engine.remembered_launches(), 0u);
  const LaunchInfo b = launch(2, "fill_b", {kFirst}, {kFirst}, false);
  run(engine, b, {access(RecordOp::kStore, b, 0, 0, 22)});
  EXPECT_TRUE(engine.races().empty());
}

TEST(CrossLaunch, ReadsOnlyRaceWithWrites) {
  Engine engine(EngineConfig{1});
  const LaunchInfo a = launch(1, "read_a", {}, {}, true);
  run(engine, a, {access(RecordOp::kLoad, a, 0, 0, 11)});
  const LaunchInfo b = launch(2, "read_b", {kFirst}, {kFirst}, true);
  run(engine, b, {access(RecordOp::kLoad, b, 1, 0, 22)});
  EXPECT_TRUE(engine.races().empty());
  const LaunchInfo c = launch(3, "write_c", {kFirst, kSecond}, {kFirst, kSecond}, true);
  run(engine, c, {access(RecordOp::kStore, c, 0, 1, 33)});
  const std::vector<Race> races = engine.races();
  ASSERT_EQ(races.size(), 1u);  // one read per word is kept: the later one
  EXPECT_EQ(races[0].hazard, Hazard::kWriteAfterRead);
  EXPECT_EQ(races[0].first_site, SiteId{22});
  EXPECT_EQ(races[0].first_kernel, "read_b");
}

TEST(CrossLaunch, GpuScopedAtomicsDoNotRaceButAtomicAndPlainDo) {
  Engine engine(EngineConfig{1});
  const LaunchInfo a = launch(1, "count_a", {}, {}, true);
  run(engine, a, {access(RecordOp::kAtomic, a, 0, 0, 11, MemorySemantics::kLegacy)});
  const LaunchInfo b = launch(2, "count_b", {kFirst}, {kFirst}, true);
  run(engine, b, {access(RecordOp::kAtomic, b, 0, 0, 22, MemorySemantics::kLegacy)});
  EXPECT_TRUE(engine.races().empty());
  const LaunchInfo c = launch(3, "reset_c", {kFirst, kSecond}, {kFirst, kSecond}, false);
  run(engine, c, {access(RecordOp::kStore, c, 0, 0, 33)});
  const std::vector<Race> races = engine.races();
  ASSERT_EQ(races.size(), 1u);
  EXPECT_EQ(races[0].hazard, Hazard::kAtomicPlain);
  EXPECT_EQ(races[0].first_site, SiteId{22});
}

LaunchInfo on_device(LaunchInfo info, uint32_t device) {
  info.device = DeviceId{device};
  return info;
}

// Two GPUs: a race between their launches is inter-device and names both devices; device-scope atomics
// do not cover another GPU, system-scope ones do.
TEST(CrossLaunch, LaunchesOnTwoDevicesRaceAsInterDevice) {
  Engine engine(EngineConfig{1});
  const LaunchInfo a = on_device(launch(1, "fill_a", {}, {}, true), 0);
  run(engine, a, {access(RecordOp::kStore, a, 0, 0, 11)});
  const LaunchInfo b = on_device(launch(2, "read_b", {kFirst}, {kFirst}, true), 1);
  run(engine, b, {access(RecordOp::kLoad, b, 0, 0, 22)});
  const std::vector<Race> races = engine.races();
  ASSERT_EQ(races.size(), 1u);
  EXPECT_EQ(races[0].race_class, RaceClass::kInterDevice);
  EXPECT_EQ(races[0].first_device, DeviceId{0});
  EXPECT_EQ(races[0].device, DeviceId{1});
}

TEST(CrossLaunch, SameDeviceRacesNameThatDeviceTwice) {
  Engine engine(EngineConfig{1});
  const LaunchInfo a = on_device(launch(1, "fill_a", {}, {}, true), 1);
  run(engine, a, {access(RecordOp::kStore, a, 0, 0, 11), access(RecordOp::kStore, a, 1, 0, 12)});
  const LaunchInfo b = on_device(launch(2, "fill_b", {kFirst}, {kFirst}, true), 1);
  run(engine, b, {access(RecordOp::kStore, b, 0, 0, 22)});
  const std::vector<Race> races = engine.races();
  ASSERT_EQ(races.size(), 2u);  // within fill_a, and fill_b against it
  for (const Race& race : races) {
    EXPECT_EQ(race.race_class, RaceClass::kInterBlock);
    EXPECT_EQ(race.first_device, DeviceId{1});
    EXPECT_EQ(race.device, DeviceId{1});
  }
}

TEST(CrossLaunch, DeviceScopedAtomicsOfTwoDevicesRaceAndSystemScopedOnesDoNot) {
  Engine engine(EngineConfig{1});
  const LaunchInfo a = on_device(launch(1, "count_a", {}, {}, true), 0);
  run(engine, a, {access(RecordOp::kAtomic, a, 0, 0, 11, MemorySemantics::kRelaxed, MemoryScope::kGpu)});
  const LaunchInfo b = on_device(launch(2, "count_b", {kFirst}, {kFirst}, true), 1);
  run(engine, b, {access(RecordOp::kAtomic, b, 0, 0, 22, MemorySemantics::kRelaxed, MemoryScope::kGpu)});
  std::vector<Race> races = engine.races();
  ASSERT_EQ(races.size(), 1u);
  EXPECT_EQ(races[0].race_class, RaceClass::kInterDevice);

  Engine system_scope(EngineConfig{1});
  run(system_scope, a, {access(RecordOp::kAtomic, a, 0, 0, 11, MemorySemantics::kRelaxed, MemoryScope::kSystem)});
  run(system_scope, b, {access(RecordOp::kAtomic, b, 0, 0, 22, MemorySemantics::kRelaxed, MemoryScope::kSystem)});
  EXPECT_TRUE(system_scope.races().empty());
}

// A volatile store and a spin read (kFlagSpinRead) in concurrent launches do not race (a flag one
// kernel raises and another polls); a volatile read that is not a spin does.
TEST(CrossLaunch, AVolatileStoreRacesWithAVolatileReadOfAnotherLaunchOnlyWhenItDoesNotSpin) {
  Engine engine(EngineConfig{1});
  const LaunchInfo a = launch(1, "raise_a", {}, {}, true);
  run(engine, a, {access(RecordOp::kStore, a, 0, 0, 11, MemorySemantics::kVolatile)});
  const LaunchInfo b = launch(2, "poll_b", {kFirst}, {kFirst}, true);
  RecordHeader spin = access(RecordOp::kLoad, b, 0, 0, 22, MemorySemantics::kVolatile);
  spin.flags = kFlagSpinRead;
  run(engine, b, {spin});
  EXPECT_TRUE(engine.races().empty());
  const LaunchInfo c = launch(3, "peek_c", {kFirst, kSecond}, {kFirst, kSecond}, false);
  run(engine, c, {access(RecordOp::kLoad, c, 0, 0, 33, MemorySemantics::kVolatile)});
  const std::vector<Race> races = engine.races();
  ASSERT_EQ(races.size(), 1u);
  EXPECT_EQ(races[0].first_site, SiteId{11});
  EXPECT_EQ(races[0].second_site, SiteId{33});
  EXPECT_EQ(races[0].hazard, Hazard::kReadAfterWrite);
}

TEST(CrossLaunch, RaceWithinTheLaterLaunchIsStillFoundOnce) {
  Engine engine(EngineConfig{1});
  const LaunchInfo a = launch(1, "fill_a", {}, {}, true);
  run(engine, a, {access(RecordOp::kStore, a, 0, 0, 11)});
  const LaunchInfo b = launch(2, "fill_b", {kFirst}, {kFirst}, false);
  run(engine, b, {access(RecordOp::kStore, b, 0, 0, 22), access(RecordOp::kStore, b, 1, 0, 22)});
  const std::vector<Race> races = engine.races();
  ASSERT_EQ(races.size(), 2u);  // fill_a/fill_b across the launches, fill_b's two blocks within
  EXPECT_EQ(races[0].first_kernel.empty() + races[1].first_kernel.empty(), 1);
}


// Message passing between two kernels running at once in two streams (cross_launch_sync.h): data at
// kX, a flag at kFlag. `sem` is the flag's semantics (release for the store, acquire for the load, or
// relaxed for both).
constexpr uint64_t kFlag = 0x30000;

RecordHeader at(RecordHeader h, uint64_t address) {
  h.base = address;
  return h;
}

RecordHeader flag_store(const LaunchInfo& info, uint32_t warp, uint32_t site, MemorySemantics sem) {
  return at(access(RecordOp::kStore, info, 0, warp, site, sem), kFlag);
}

RecordHeader flag_load(const LaunchInfo& info, uint32_t warp, uint32_t site, MemorySemantics sem) {
  return at(access(RecordOp::kLoad, info, 0, warp, site, sem), kFlag);
}

// The consumer is launched first, the producer after it into another stream; both run at once.
std::vector<Race> consumer_first(std::vector<RecordHeader> (*consumer)(const LaunchInfo&),
                                 std::vector<RecordHeader> (*producer)(const LaunchInfo&)) {
  Engine engine(EngineConfig{1});
  const LaunchInfo a = launch(1, "consume", {}, {}, true, 1);
  run(engine, a, consumer(a));
  const LaunchInfo b = launch(2, "produce", {kFirst}, {kFirst}, true, 1);
  run(engine, b, producer(b));
  return engine.races();
}

std::vector<RecordHeader> acquire_then_read(const LaunchInfo& c) {
  return {flag_load(c, 0, 1, MemorySemantics::kAcquire), access(RecordOp::kLoad, c, 0, 0, 2)};
}
std::vector<RecordHeader> write_then_release(const LaunchInfo& p) {
  return {access(RecordOp::kStore, p, 0, 0, 3), flag_store(p, 0, 4, MemorySemantics::kRelease)};
}

TEST(CrossLaunch, AConsumerAcquiringWhatAConcurrentLaterProducerReleasedDoesNotRace) {
  EXPECT_TRUE(consumer_first(acquire_then_read, write_then_release).empty());
}

TEST(CrossLaunch, AConsumerReadingAfterARelaxedFlagRacesWithTheProducersWrite) {
  const auto relaxed_consumer = [](const LaunchInfo& c) -> std::vector<RecordHeader> {
    return {flag_load(c, 0, 1, MemorySemantics::kRelaxed), access(RecordOp::kLoad, c, 0, 0, 2)};
  };
  const auto relaxed_producer = [](const LaunchInfo& p) -> std::vector<RecordHeader> {
    return {access(RecordOp::kStore, p, 0, 0, 3), flag_store(p, 0, 4, MemorySemantics::kRelaxed)};
  };
  const std::vector<Race> races = consumer_first(relaxed_consumer, relaxed_producer);
  ASSERT_EQ(races.size(), 1u);
  EXPECT_EQ(races[0].hazard, Hazard::kWriteAfterRead);
  EXPECT_EQ(races[0].first_site, SiteId{2});
  EXPECT_EQ(races[0].second_site, SiteId{3});
}

TEST(CrossLaunch, WhatTheProducerWritesAfterItsReleaseOrWhatTheConsumerReadsBeforeItsAcquireStillRaces) {
  const auto write_after_release = [](const LaunchInfo& p) -> std::vector<RecordHeader> {
    return {flag_store(p, 0, 4, MemorySemantics::kRelease), access(RecordOp::kStore, p, 0, 0, 3)};
  };
  EXPECT_EQ(consumer_first(acquire_then_read, write_after_release).size(), 1u);
  const auto read_before_acquire = [](const LaunchInfo& c) -> std::vector<RecordHeader> {
    return {access(RecordOp::kLoad, c, 0, 0, 2), flag_load(c, 0, 1, MemorySemantics::kAcquire)};
  };
  EXPECT_EQ(consumer_first(read_before_acquire, write_then_release).size(), 1u);
}

TEST(CrossLaunch, AThreadThatDidNotAcquireStillRaces) {
  // Warp 0 acquires the flag, warp 1 reads the data without any ordering to warp 0.
  const auto other_warp_reads = [](const LaunchInfo& c) -> std::vector<RecordHeader> {
    return {flag_load(c, 0, 1, MemorySemantics::kAcquire), access(RecordOp::kLoad, c, 0, 1, 2)};
  };
  EXPECT_EQ(consumer_first(other_warp_reads, write_then_release).size(), 1u);
}

// Whole warps: lane i of warp w touches word 32 * w + i of the data.
RecordHeader warp_access(RecordOp op, const LaunchInfo& info, uint32_t warp, uint32_t site) {
  RecordHeader h = access(op, info, 0, warp, site);
  h.active_mask = ~0u;
  h.base = kX + 128 * warp;
  h.stride = 4;
  return h;
}

RecordHeader warp_flag_load(const LaunchInfo& info, uint32_t warp) {
  RecordHeader h = flag_load(info, warp, 1, MemorySemantics::kAcquire);
  h.active_mask = ~0u;
  return h;
}

RecordHeader block_barrier(const LaunchInfo& info, uint32_t warp) {
  RecordHeader h{};
  h.op = static_cast<uint8_t>(RecordOp::kBarrier);
  h.active_mask = ~0u;
  h.warp_id = static_cast<uint16_t>(warp);
  h.launch_id = info.launch_id;
  h.site_id = 9;
  return h;
}

TEST(CrossLaunch, WritesABarrierOrdersBeforeTheReleaseArePublishedToEveryAcquiringThread) {
  // The producer's two warps write, meet at __syncthreads, and lane 0 of warp 0 releases the flag;
  // every consumer thread spins on the flag (acquire), then reads.
  Engine engine(EngineConfig{1});
  const LaunchInfo a = launch(1, "consume", {}, {}, true, 1);
  run(engine, a,
      {warp_flag_load(a, 0), warp_flag_load(a, 1), warp_access(RecordOp::kLoad, a, 0, 2),
       warp_access(RecordOp::kLoad, a, 1, 2)});
  const LaunchInfo b = launch(2, "produce", {kFirst}, {kFirst}, true, 1);
  run(engine, b,
      {warp_access(RecordOp::kStore, b, 0, 3), warp_access(RecordOp::kStore, b, 1, 3), block_barrier(b, 0),
       block_barrier(b, 1), flag_store(b, 0, 4, MemorySemantics::kRelease)});
  EXPECT_TRUE(engine.races().empty());
}

TEST(CrossLaunch, AProducerLaunchedFirstPublishesToAConcurrentConsumer) {
  Engine engine(EngineConfig{1});
  const LaunchInfo a = launch(1, "produce", {}, {}, true, 1);
  run(engine, a, write_then_release(a));
  const LaunchInfo b = launch(2, "consume", {kFirst}, {kFirst}, true, 1);
  run(engine, b, acquire_then_read(b));
  EXPECT_TRUE(engine.races().empty());
}

// A consumer block whose leader (lane 0 of warp 0) acquires the flag and hands it to its block-mates
// through __syncthreads: the reads of every thread are ordered after the acquire. Block b's data is
// at `kX + 512 * b`, lane i of warp w reading word 32 * w + i; warp 0 reads at site 20, warp 1 at 21.
constexpr uint32_t kWarp0ReadSite = 20, kWarp1ReadSite = 21;
constexpr uint64_t kBlockDataBytes = 512;

RecordHeader of_block(RecordHeader h, uint32_t block) {
  h.block_id = block;
  return h;
}

RecordHeader leader_acquire(const LaunchInfo& c) { return flag_load(c, 0, 1, MemorySemantics::kAcquire); }

std::vector<RecordHeader> block_reads(const LaunchInfo& c, uint32_t block = 0) {
  std::vector<RecordHeader> reads = {warp_access(RecordOp::kLoad, c, 0, kWarp0ReadSite),
                                     warp_access(RecordOp::kLoad, c, 1, kWarp1ReadSite)};
  for (RecordHeader& read : reads) read = at(of_block(read, block), read.base + kBlockDataBytes * block);
  return reads;
}

std::vector<RecordHeader> block_meets(const LaunchInfo& info, uint32_t block = 0) {
  return {of_block(block_barrier(info, 0), block), of_block(block_barrier(info, 1), block)};
}

std::vector<RecordHeader> concat(std::initializer_list<std::vector<RecordHeader>> parts) {
  std::vector<RecordHeader> all;
  for (const std::vector<RecordHeader>& part : parts) all.insert(all.end(), part.begin(), part.end());
  return all;
}

std::vector<RecordHeader> leader_acquires_then_block_reads(const LaunchInfo& c) {
  return concat({{leader_acquire(c)}, block_meets(c), block_reads(c)});
}

std::vector<RecordHeader> leader_acquires_block_reads_unordered(const LaunchInfo& c) {
  return concat({{leader_acquire(c)}, block_reads(c)});
}

// Every producer thread writes its word of blocks 0 and 1's data, then releases the flag itself.
std::vector<RecordHeader> every_thread_writes_then_releases(const LaunchInfo& p) {
  std::vector<RecordHeader> records;
  for (uint32_t warp = 0; warp < 2; ++warp) {
    const RecordHeader store = warp_access(RecordOp::kStore, p, warp, 3);
    records.push_back(store);
    records.push_back(at(store, store.base + kBlockDataBytes));
    RecordHeader release = flag_store(p, warp, 4, MemorySemantics::kRelease);
    release.active_mask = ~0u;
    records.push_back(release);
  }
  return records;
}

// The producer's threads all write, meet at __syncthreads, then lane 0 of warp 0 releases the flag.
std::vector<RecordHeader> block_writes_then_leader_releases(const LaunchInfo& p) {
  return concat({{warp_access(RecordOp::kStore, p, 0, 3), warp_access(RecordOp::kStore, p, 1, 3)},
                 block_meets(p),
                 {flag_store(p, 0, 4, MemorySemantics::kRelease)}});
}

// The producer is launched first, the consumer after it into another stream; both run at once.
std::vector<Race> producer_first(std::vector<RecordHeader> (*producer)(const LaunchInfo&),
                                 std::vector<RecordHeader> (*consumer)(const LaunchInfo&),
                                 uint32_t consumer_blocks = 1) {
  Engine engine(EngineConfig{1});
  const LaunchInfo a = launch(1, "produce", {}, {}, true, 1);
  run(engine, a, producer(a));
  const LaunchInfo b = launch(2, "consume", {kFirst}, {kFirst}, true, consumer_blocks);
  run(engine, b, consumer(b));
  return engine.races();
}

// Whether a race of the consumer's read at `read_site` (first or second, by launch order) was reported.
bool reported(const std::vector<Race>& races, uint32_t read_site) {
  return std::any_of(races.begin(), races.end(), [&](const Race& r) {
    return r.first_site == SiteId{read_site} || r.second_site == SiteId{read_site};
  });
}

TEST(CrossLaunch, ReadsABarrierOrdersAfterABlockMatesAcquireDoNotRace) {
  EXPECT_TRUE(producer_first(every_thread_writes_then_releases, leader_acquires_then_block_reads).empty());
}

TEST(CrossLaunch, ReadsOfBlockMatesNothingOrdersAfterTheLeadersAcquireRace) {
  const std::vector<Race> races =
      producer_first(every_thread_writes_then_releases, leader_acquires_block_reads_unordered);
  EXPECT_TRUE(reported(races, kWarp1ReadSite));
  EXPECT_TRUE(reported(races, kWarp0ReadSite));  // lanes 1 to 31: independent thread scheduling
}

TEST(CrossLaunch, ABarrierBeforeTheLeadersAcquireOrdersNoReadAfterIt) {
  const auto barrier_first = [](const LaunchInfo& c) {
    return concat({block_meets(c), {leader_acquire(c)}, block_reads(c)});
  };
  const std::vector<Race> races = producer_first(every_thread_writes_then_releases, barrier_first);
  EXPECT_TRUE(reported(races, kWarp1ReadSite));
  EXPECT_TRUE(reported(races, kWarp0ReadSite));
}

TEST(CrossLaunch, AnAcquireInAnotherBlockOrdersNoRead) {
  const auto other_block_reads = [](const LaunchInfo& c) {
    return concat({{leader_acquire(c)}, block_meets(c, 0), block_meets(c, 1), block_reads(c, 1)});
  };
  const std::vector<Race> races = producer_first(every_thread_writes_then_releases, other_block_reads, 2);
  EXPECT_TRUE(reported(races, kWarp1ReadSite));
  EXPECT_TRUE(reported(races, kWarp0ReadSite));
}

TEST(CrossLaunch, AFencedSpinOfTheLeaderHandedOnByABarrierOrdersTheBlocksReads) {
  // while (volatile flag == 0); __threadfence(); __syncthreads(); read.
  const auto fenced_spin = [](const LaunchInfo& c) {
    RecordHeader spin = flag_load(c, 0, 1, MemorySemantics::kVolatile);
    spin.flags = kFlagSpinRead;
    RecordHeader fence{};
    fence.op = static_cast<uint8_t>(RecordOp::kFence);
    fence.active_mask = 1;
    fence.launch_id = c.launch_id;
    fence.space_sem = pack_space_sem(MemorySpace::kGlobal, MemorySemantics::kAcqRel, MemoryScope::kGpu);
    return concat({{spin, fence}, block_meets(c), block_reads(c)});
  };
  EXPECT_TRUE(producer_first(every_thread_writes_then_releases, fenced_spin).empty());
}

TEST(CrossLaunch, WritesABarrierOrdersBeforeTheLeadersReleaseArePublishedToABarrierOrderedConsumer) {
  // The producer's side on its own: every consumer thread acquires (the release's published knowledge
  // covers the block-mates' writes through the barrier)...
  const auto every_thread_acquires = [](const LaunchInfo& c) {
    return concat({{warp_flag_load(c, 0), warp_flag_load(c, 1)}, block_reads(c)});
  };
  EXPECT_TRUE(producer_first(block_writes_then_leader_releases, every_thread_acquires).empty());
  // ...and with the consumer's leader handing its acquire on.
  EXPECT_TRUE(producer_first(block_writes_then_leader_releases, leader_acquires_then_block_reads).empty());
}

TEST(CrossLaunch, AConsumerLaunchedFirstHandsItsLeadersAcquireToTheBlockThroughABarrier) {
  // The consumer's reads are checked when the producer's writes come, before the producer's release
  // is known: the pairs are decided at the producer's end (ordered_by_sync).
  EXPECT_TRUE(consumer_first(leader_acquires_then_block_reads, block_writes_then_leader_releases).empty());
  EXPECT_TRUE(consumer_first(leader_acquires_then_block_reads, every_thread_writes_then_releases).empty());
  const std::vector<Race> races =
      consumer_first(leader_acquires_block_reads_unordered, block_writes_then_leader_releases);
  EXPECT_TRUE(reported(races, kWarp1ReadSite));
  EXPECT_TRUE(reported(races, kWarp0ReadSite));
}

// Warp 1's lane 0 reads word A, learns of the leader's acquire by waiting on an mbarrier the leader
// arrived at after it (which moves no clock), then reads word B: only B is ordered after the acquire.
constexpr uint32_t kReadASite = 21, kReadBSite = 22;
constexpr uint64_t kWordA = kX, kWordB = kX + 4;

RecordHeader mbarrier(RecordOp op, const LaunchInfo& info, uint32_t warp) {
  RecordHeader h{};
  h.op = static_cast<uint8_t>(op);
  h.active_mask = 1;
  h.warp_id = static_cast<uint16_t>(warp);
  h.launch_id = info.launch_id;
  h.site_id = 8;
  h.base = 0x100;  // the mbarrier's shared-memory offset
  return h;
}

std::vector<RecordHeader> read_a_learn_read_b(const LaunchInfo& c) {
  return {leader_acquire(c), mbarrier(RecordOp::kMbarrierArrive, c, 0),
          at(access(RecordOp::kLoad, c, 0, 1, kReadASite), kWordA), mbarrier(RecordOp::kMbarrierWait, c, 1),
          at(access(RecordOp::kLoad, c, 0, 1, kReadBSite), kWordB)};
}

std::vector<RecordHeader> write_a_and_b_then_release(const LaunchInfo& p) {
  return {at(access(RecordOp::kStore, p, 0, 0, 3), kWordA), at(access(RecordOp::kStore, p, 0, 0, 3), kWordB),
          flag_store(p, 0, 4, MemorySemantics::kRelease)};
}

TEST(CrossLaunch, AReadBeforeTheThreadLearntOfABlockMatesAcquireStillRaces) {
  for (const std::vector<Race>& races : {producer_first(write_a_and_b_then_release, read_a_learn_read_b),
                                         consumer_first(read_a_learn_read_b, write_a_and_b_then_release)}) {
    EXPECT_TRUE(reported(races, kReadASite));
    EXPECT_FALSE(reported(races, kReadBSite));
  }
}

TEST(CrossLaunch, ABlockWithMoreAcquirersThanItHandsOnCountsOnlyEachThreadsOwnAcquires) {
  // 33 acquirers: warp 0's lanes of the flag, warp 1's lane 0 of another location. The bound on the
  // work per access keeps warp 1 from inheriting the flag; its reads are reported as without a leader.
  const auto crowded = [](const LaunchInfo& c) {
    return concat({{warp_flag_load(c, 0), at(flag_load(c, 1, 1, MemorySemantics::kAcquire), kFlag + 4)},
                   block_meets(c),
                   block_reads(c)});
  };
  const std::vector<Race> races = producer_first(every_thread_writes_then_releases, crowded);
  EXPECT_TRUE(reported(races, kWarp1ReadSite));
  EXPECT_FALSE(reported(races, kWarp0ReadSite));
}

}  // namespace
}  // namespace barracuda::engine
