// The cluster- and gpu-scope synchronisation locations shared by the workers (sync_map.h).
#include "engine/sync_map.h"

#include <gtest/gtest.h>

#include <memory>

namespace barracuda::engine {
namespace {

Clock c(uint32_t v) { return static_cast<Clock>(v); }

Knowledge released_by(uint32_t thread, uint32_t clock) {
  return {make_clock(ClockRanges{{thread, thread + 1, c(clock)}}), nullptr, nullptr, {}};
}

TEST(SyncMap, ALocationKeepsWhatItsReleasesJoined) {
  SyncMap map;
  map.release_to_gpu(0x100, released_by(3, 5), released_by(3, 5).strict, true);
  map.release_to_gpu(0x100, released_by(7, 2), released_by(7, 2).strict, true);
  map.release_to_cluster(4, 0x100, released_by(9, 1));
  const Knowledge gpu = map.acquire(SyncMap::kGpuDomain, 0x100);
  ASSERT_TRUE(gpu.strict);
  EXPECT_EQ(gpu.strict->at(static_cast<ThreadId>(3)), c(5));
  EXPECT_EQ(gpu.strict->at(static_cast<ThreadId>(7)), c(2));
  EXPECT_EQ(map.acquire(4, 0x100).strict->at(static_cast<ThreadId>(9)), c(1));
  EXPECT_FALSE(map.acquire(5, 0x100).strict) << "another cluster's domain";
}

// The map keeps its entries from one launch to the next (stale by generation): none of a cleared
// launch's releases may reach an acquire after it, in either domain, and a new release starts afresh.
TEST(SyncMap, NothingReleasedBeforeAClearIsAcquiredAfterIt) {
  SyncMap map;
  map.release_to_gpu(0x100, released_by(3, 5), released_by(3, 5).strict, true);
  map.release_to_cluster(4, 0x200, released_by(9, 1));
  map.clear();
  EXPECT_FALSE(map.may_hold(0x100));
  EXPECT_FALSE(map.acquire(SyncMap::kGpuDomain, 0x100).strict);
  EXPECT_FALSE(map.acquire(SyncMap::kGpuDomain, 0x100).wide);
  EXPECT_FALSE(map.acquire(4, 0x200).strict);
  map.release_to_gpu(0x100, released_by(7, 2), released_by(7, 2).strict, true);
  const Knowledge after = map.acquire(SyncMap::kGpuDomain, 0x100);
  ASSERT_TRUE(after.strict);
  EXPECT_EQ(after.strict->at(static_cast<ThreadId>(3)), Clock{}) << "the cleared release's thread";
  EXPECT_EQ(after.strict->at(static_cast<ThreadId>(7)), c(2));
}

}  // namespace
}  // namespace barracuda::engine
