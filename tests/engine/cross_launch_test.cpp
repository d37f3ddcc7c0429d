// Races between launches that may run concurrently (other streams, nothing ordering them).
#include <gtest/gtest.h>

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
                    MemorySemantics sem = MemorySemantics::kWeak) {
  RecordHeader h{};
  h.op = static_cast<uint8_t>(op);
  h.active_mask = 1;
  h.block_id = block;
  h.warp_id = static_cast<uint16_t>(warp);
  h.launch_id = info.launch_id;
  h.site_id = site;
  h.space_sem = pack_space_sem(MemorySpace::kGlobal, sem, MemoryScope::kGpu);
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

}  // namespace
}  // namespace barracuda::engine
