// Kernels with more than a million threads: per-block state lives only while a block runs.
#include <gtest/gtest.h>

#include "scenario.h"

namespace barracuda::engine::test {
namespace {

TEST(LargeLaunch, MillionThreadsKeepOnlyRunningBlocksResident) {
  constexpr uint32_t kBlocks = 4096, kWarps = 8;  // 4096 x 256 = 1,048,576 threads
  Scenario s(Dim3{kBlocks, 1, 1}, Dim3{kWarps * 32, 1, 1});
  SiteId a{}, b{};
  for (uint32_t block = 0; block < kBlocks; ++block) {
    const uint64_t base = 0x100000 + uint64_t{block} * kWarps * 32 * 4;
    for (uint32_t w = 0; w < kWarps; ++w) s.warp(block, w).store(kAllLanes, base + w * 128);
    for (uint32_t w = 0; w < kWarps; ++w) s.warp(block, w).barrier();
    for (uint32_t w = 0; w < kWarps; ++w) s.warp(block, w).load(kAllLanes, base + ((w + 1) % kWarps) * 128);
    if (block == kBlocks - 1) {  // one racy pair between two warps of the last block
      a = s.warp(block, 0).store(lane(0), 0x50, 0);
      b = s.warp(block, 1).store(lane(0), 0x50, 0);
    }
    for (uint32_t w = 0; w < kWarps; ++w) s.warp(block, w).exit();
  }
  s.run();
  ASSERT_EQ(s.races().size(), 1u);
  EXPECT_TRUE(s.race(a, b));
  EXPECT_EQ(s.stats().thread_accesses, 2ull * kBlocks * kWarps * 32 + 2);
  // Blocks were logged one after the other: only one was ever resident.
  EXPECT_EQ(s.stats().peak_resident_blocks, 1u);
  EXPECT_EQ(s.stats().malformed_records, 0u);
}

}  // namespace
}  // namespace barracuda::engine::test
