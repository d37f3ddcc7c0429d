// Dynamic parallelism (engine/child_grids.h): child grids launched from the device are checked in
// their parent's launch. The parent is block 1 of a two-block grid (queue 1); its children's blocks
// (ids 2 and up) log into queue 0, which the engine consumes first: the sync tickets
// (kDeviceLaunchBucket) hold them back until the launch that started them.
#include <gtest/gtest.h>

#include "scenario.h"

namespace barracuda::engine::test {
namespace {

constexpr uint64_t kData = 0x20000;
const Dim3 kParentGrid{2, 1, 1};
const Dim3 kWarp{32, 1, 1};
constexpr uint32_t kParent = 1;
constexpr uint64_t kNamedStreamA = 0x7f0000001000, kNamedStreamB = 0x7f0000002000;

struct Family {
  Scenario s{kParentGrid, kWarp, WarpModel::kIndependent, 2};
  WarpScript parent = s.warp(kParent, 0);
  uint64_t next_ticket = 0;

  Family() { s.with_child_grids(); }

  SiteId launch(uint32_t first_block, uint64_t stream = 0) {
    parent.ticket(next_ticket++, lane(0), kDeviceLaunchBucket);
    return parent.device_launch(lane(0), first_block, stream);
  }
  void enter(WarpScript& child, uint32_t first_block, Dim3 grid = {1, 1, 1}, Dim3 block = kWarp) {
    child.ticket(next_ticket++, kAllLanes, kDeviceLaunchBucket);
    child.child_entry(kAllLanes, first_block, grid, block);
  }
  void leave(WarpScript& child) {
    child.ticket(next_ticket++, kAllLanes, kDeviceLaunchBucket);
    child.child_exit();
  }
};

TEST(ChildGrids, ChildSeesWhatTheBlockDidBeforeTheLaunch) {
  Family f;
  const SiteId write = f.parent.store(kAllLanes, kData);
  f.parent.barrier();
  f.launch(2);
  WarpScript child = f.s.warp(2, 0);
  f.enter(child, 2);
  const SiteId read = child.load(kAllLanes, kData);
  f.leave(child);
  f.s.run();
  EXPECT_FALSE(f.s.race(write, read)) << "the launch orders the parent's writes before the child";
  EXPECT_TRUE(f.s.races().empty());
  EXPECT_EQ(f.s.stats().malformed_records, 0u);
}

TEST(ChildGrids, ParentWriteAfterTheLaunchRacesWithTheChild) {
  Family f;
  f.launch(2);
  const SiteId late = f.parent.store(lane(0), kData);
  WarpScript child = f.s.warp(2, 0);
  f.enter(child, 2);
  const SiteId read = child.load(lane(5), kData, 0);
  f.leave(child);
  f.s.run();
  const std::optional<Race> race = f.s.race(late, read);
  ASSERT_TRUE(race);
  EXPECT_EQ(race->race_class, RaceClass::kInterBlock);
  // The child's thread is named in its own grid.
  const ThreadCoord& child_thread = race->first_site == read ? race->first_thread : race->second_thread;
  ASSERT_TRUE(child_thread.child);
  EXPECT_EQ(raw(child_thread.child->first_block), 2u);
  EXPECT_EQ(raw(child_thread.block), 2u);
  EXPECT_EQ(child_thread.thread, 5u);
  const ThreadCoord& parent_thread = race->first_site == read ? race->second_thread : race->first_thread;
  EXPECT_FALSE(parent_thread.child);
}

TEST(ChildGrids, OtherParentThreadsAreNotOrderedBeforeTheChild) {
  Family f;
  const SiteId write = f.parent.store(lane(7), kData, 0);  // no barrier before lane 0 launches
  f.launch(2);
  WarpScript child = f.s.warp(2, 0);
  f.enter(child, 2);
  const SiteId read = child.load(lane(0), kData);
  f.leave(child);
  f.s.run();
  EXPECT_TRUE(f.s.race(write, read));
}

// Two children in one stream run one after the other; in two streams, or fire-and-forget, they race.
TEST(ChildGrids, StreamsOrderSiblingGrids) {
  struct Case {
    uint64_t first_stream, second_stream;
    bool races;
  };
  for (const Case& c : {Case{0, 0, false}, Case{kNamedStreamA, kNamedStreamA, false},
                        Case{kNamedStreamA, kNamedStreamB, true}, Case{0, kNamedStreamA, true},
                        Case{kDeviceStreamFireAndForget, kDeviceStreamFireAndForget, true},
                        Case{kDeviceStreamTailLaunch, kDeviceStreamTailLaunch, false}}) {
    Family f;
    f.launch(2, c.first_stream);
    f.launch(3, c.second_stream);
    WarpScript first = f.s.warp(2, 0), second = f.s.warp(3, 0);
    f.enter(first, 2);
    const SiteId write = first.store(kAllLanes, kData);
    f.leave(first);
    f.enter(second, 3);
    const SiteId read = second.load(kAllLanes, kData);
    f.leave(second);
    f.s.run();
    EXPECT_EQ(f.s.race(write, read).has_value(), c.races) << c.first_stream << " then " << c.second_stream;
  }
}

// A tail launch starts after its whole launching grid: another block's write before its exit is
// ordered, a child launched into a stream is not (it runs beside the launching grid).
TEST(ChildGrids, TailLaunchFollowsTheWholeLaunchingGrid) {
  for (uint64_t stream : {kDeviceStreamTailLaunch, kNamedStreamA}) {
    Family f;
    WarpScript other_block = f.s.warp(0, 0);
    const SiteId write = other_block.store(lane(3), kData, 0);
    f.launch(2, stream);
    f.leave(other_block);
    f.leave(f.parent);
    WarpScript child = f.s.warp(2, 0);
    f.enter(child, 2);
    const SiteId read = child.load(lane(0), kData, 0);
    f.leave(child);
    f.s.run();
    EXPECT_EQ(f.s.race(write, read).has_value(), stream != kDeviceStreamTailLaunch) << stream;
    EXPECT_EQ(f.s.stats().malformed_records, 0u);
  }
}

// A block of a child grid that exits does not order a later block of the same grid.
TEST(ChildGrids, BlocksOfOneChildGridRaceWithEachOther) {
  Family f;
  f.launch(2);
  WarpScript first = f.s.warp(2, 0), second = f.s.warp(3, 0);
  f.enter(first, 2, {2, 1, 1});
  const SiteId a = first.store(lane(0), kData);
  f.leave(first);
  f.enter(second, 2, {2, 1, 1});
  const SiteId b = second.store(lane(0), kData);
  f.leave(second);
  f.s.run();
  const std::optional<Race> race = f.s.race(a, b);
  ASSERT_TRUE(race);
  ASSERT_TRUE(race->first_thread.child && race->second_thread.child);
  EXPECT_EQ(race->first_thread.child->grid, (Dim3{2, 1, 1}));
  EXPECT_EQ(f.s.stats().malformed_records, 0u);
}

// A child grid's blocks may be bigger than the parent's: its second warp exists.
TEST(ChildGrids, ChildBlocksHaveTheirOwnShape) {
  Family f;
  f.launch(2);
  WarpScript warp0 = f.s.warp(2, 0), warp1 = f.s.warp(2, 1);
  f.enter(warp0, 2, {1, 1, 1}, {64, 1, 1});
  f.enter(warp1, 2, {1, 1, 1}, {64, 1, 1});
  const SiteId a = warp0.store(lane(3), kData);
  const SiteId b = warp1.store(lane(3), kData);
  f.leave(warp0);
  f.leave(warp1);
  f.s.run();
  EXPECT_EQ(f.s.stats().malformed_records, 0u);
  const std::optional<Race> race = f.s.race(a, b);
  ASSERT_TRUE(race);
  EXPECT_EQ(race->race_class, RaceClass::kInterWarp);
}

TEST(ChildGrids, RecordsOfAnUnknownChildAreMalformed) {
  Family f;
  WarpScript stray = f.s.warp(5, 0);
  stray.store(lane(0), kData);
  f.s.run();
  EXPECT_EQ(f.s.stats().malformed_records, 1u);

  // Without launches_child_grids a child entry is malformed too.
  Scenario plain(kParentGrid, kWarp);
  WarpScript child = plain.warp(2, 0);
  child.child_entry(kAllLanes, 2, {1, 1, 1}, kWarp);
  plain.run();
  EXPECT_EQ(plain.stats().malformed_records, 1u);
}

TEST(ChildGrids, ImpossibleShapesAreMalformed) {
  Family f;
  WarpScript inside_parent = f.s.warp(1, 1);
  inside_parent.child_entry(kAllLanes, 1, {1, 1, 1}, kWarp);  // the parent's own block ids
  WarpScript huge = f.s.warp(2, 0);
  huge.child_entry(kAllLanes, 2, {1, 1, 1}, {2048, 1, 1});  // above 1024 threads a block
  f.s.run();
  EXPECT_EQ(f.s.stats().malformed_records, 2u);
}

TEST(ChildGrids, ChildGridsWithoutBlockIdsAreCounted) {
  Family f;
  f.launch(kUncheckedChildGrid);
  f.s.run();
  EXPECT_EQ(f.s.stats().unchecked_child_grids, 1u);
  EXPECT_EQ(f.s.stats().malformed_records, 0u);
}

}  // namespace
}  // namespace barracuda::engine::test
