// The map of live device memory that race reports name allocations from: lookups at the edges,
// overlaps, frees, unmaps, reuse of an address, module unloads; and the shim events that feed it.
#include "runtime/allocation_map.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include "runtime/allocation_description.h"
#include "runtime/allocation_tracker.h"

namespace barracuda::runtime {
namespace {

using report::AllocationKind;

AllocationRecord block(uint64_t base, uint64_t size, AllocationKind kind = AllocationKind::kMemAlloc) {
  return AllocationRecord{base, size, kind, {}, nullptr, {}};
}

TEST(AllocationMap, FindsAnAddressFromTheFirstToTheLastByte) {
  AllocationMap map;
  map.insert(block(0x1000, 0x100));
  EXPECT_FALSE(map.find(0xfff));
  ASSERT_TRUE(map.find(0x1000));
  EXPECT_EQ(map.find(0x1000)->base, 0x1000u);
  EXPECT_TRUE(map.find(0x10ff));
  EXPECT_FALSE(map.find(0x1100));
  EXPECT_FALSE(map.find(0));
  EXPECT_FALSE(map.find(UINT64_MAX));
}

TEST(AllocationMap, TellsAdjacentAllocationsApart) {
  AllocationMap map;
  map.insert(block(0x1000, 0x100));
  map.insert(block(0x1100, 0x80, AllocationKind::kMemAllocManaged));
  EXPECT_EQ(map.find(0x10ff)->kind, AllocationKind::kMemAlloc);
  EXPECT_EQ(map.find(0x1100)->kind, AllocationKind::kMemAllocManaged);
  EXPECT_EQ(map.size(), 2u);
}

TEST(AllocationMap, AFreedAllocationLeavesAndItsAddressCanComeBack) {
  AllocationMap map;
  map.insert(block(0x1000, 0x100));
  map.erase_starting_at(0x1010);  // not the start of an allocation: nothing happens
  EXPECT_TRUE(map.find(0x1000));
  map.erase_starting_at(0x1000);
  EXPECT_FALSE(map.find(0x1000));
  map.insert(block(0x1000, 0x40, AllocationKind::kMemAllocAsync));
  EXPECT_EQ(map.find(0x1000)->kind, AllocationKind::kMemAllocAsync);
  EXPECT_FALSE(map.find(0x1040)) << "the new allocation is smaller";
}

TEST(AllocationMap, AnOverlappingInsertReplacesWhatItOverlaps) {
  AllocationMap map;
  map.insert(block(0x1000, 0x100));
  map.insert(block(0x1200, 0x100));
  map.insert(block(0x3000, 0x100));
  // A free barracuda did not see: the driver handed out 0x10f0..0x120f again.
  map.insert(block(0x10f0, 0x120, AllocationKind::kMemAllocPitch));
  EXPECT_FALSE(map.find(0x1000));
  EXPECT_FALSE(map.find(0x1250));
  EXPECT_EQ(map.find(0x1100)->kind, AllocationKind::kMemAllocPitch);
  EXPECT_TRUE(map.find(0x3000));
  EXPECT_EQ(map.size(), 2u);
}

TEST(AllocationMap, EmptyAllocationsAreIgnored) {
  AllocationMap map;
  map.insert(block(0x1000, 0));
  EXPECT_EQ(map.size(), 0u);
}

TEST(AllocationMap, AnUnmapRemovesEveryRangeItTouches) {
  AllocationMap map;
  map.insert(block(0x10000, 0x10000, AllocationKind::kMemMap));
  map.insert(block(0x20000, 0x10000, AllocationKind::kMemMap));
  map.insert(block(0x30000, 0x10000, AllocationKind::kMemMap));
  map.erase_overlapping(0x18000, 0x10000);
  EXPECT_FALSE(map.find(0x10000));
  EXPECT_FALSE(map.find(0x27fff));
  EXPECT_TRUE(map.find(0x30000)) << "starts where the unmapped range ends";
  map.erase_overlapping(UINT64_MAX - 1, 16);  // wraps: must not throw or erase the rest
  EXPECT_EQ(map.size(), 1u);
}

TEST(AllocationMap, AnUnloadRemovesItsModulesVariablesOnly) {
  AllocationMap map;
  int module_a = 0, module_b = 0;
  map.insert({0x5000, 4, AllocationKind::kGlobalVariable, "flag", &module_a, {}});
  map.insert({0x5100, 8, AllocationKind::kGlobalVariable, "total", &module_b, {}});
  map.insert(block(0x9000, 0x100));
  map.erase_owned_by(&module_a);
  EXPECT_FALSE(map.find(0x5000));
  EXPECT_EQ(map.find(0x5104)->symbol, "total");
  EXPECT_TRUE(map.find(0x9000));
}

shim::DeviceAllocation allocation_event(shim::Hook hook, CUdeviceptr base, size_t size) {
  shim::DeviceAllocation event{{hook, false}, base, size, {}};
  event.allocated_by.return_addresses[0] = reinterpret_cast<const void*>(&allocation_event);
  event.allocated_by.depth = 1;
  return event;
}

TEST(AllocationTracker, KeepsTheMapInStepWithTheApplicationsCalls) {
  AllocationMap map;
  AllocationTracker tracker(map);
  tracker.on_allocation(allocation_event(shim::Hook::MemAlloc, 0x1000, 0x100));
  tracker.on_allocation(allocation_event(shim::Hook::MemAllocFromPoolAsync, 0x2000, 0x100));
  tracker.on_allocation(allocation_event(shim::Hook::MemMap, 0x10000, 0x10000));
  EXPECT_EQ(map.find(0x1000)->kind, AllocationKind::kMemAlloc);
  EXPECT_EQ(map.find(0x2000)->kind, AllocationKind::kMemAllocAsync);
  EXPECT_EQ(map.find(0x1000)->allocated_by.depth, 1u);
  tracker.on_release({{shim::Hook::MemFree, false}, 0x1000, 0});
  tracker.on_release({{shim::Hook::MemFreeAsync, false}, 0x2000, 0});
  tracker.on_release({{shim::Hook::MemUnmap, false}, 0x18000, 0x8000});
  EXPECT_EQ(map.size(), 0u);
}

TEST(DescribeAllocation, GivesTheOffsetAndNamesTheFrames) {
  AllocationRecord record = block(0x1000, 0x100);
  record.allocated_by = allocation_event(shim::Hook::MemAlloc, 0, 0).allocated_by;
  const report::Allocation described = describe_allocation(record, 0x1010);
  EXPECT_EQ(described.kind, AllocationKind::kMemAlloc);
  EXPECT_EQ(described.offset, 0x10u);
  ASSERT_EQ(described.allocated_by.size(), 1u);
  // The test binary exports no symbol for a function in an anonymous namespace: object+offset.
  EXPECT_NE(described.allocated_by[0].find("runtime_allocation_map_test+0x"), std::string::npos)
      << described.allocated_by[0];
  EXPECT_EQ(describe_allocation(std::nullopt, 0x1010).kind, AllocationKind::kNone);
}

TEST(DescribeAllocation, DemanglesVariableNames) {
  const report::Allocation described =
      describe_allocation(AllocationRecord{0x5000, 8, AllocationKind::kGlobalVariable, "_ZN2ns5totalE", nullptr, {}}, 0x5004);
  EXPECT_EQ(described.symbol, "ns::total");
  EXPECT_TRUE(described.allocated_by.empty());
}

TEST(HostFrameText, NamesAnExportedFunctionWithItsOffsetAndObject) {
  const void* in_libc = reinterpret_cast<const char*>(&getpid) + 1;
  const std::string text = host_frame_text(in_libc);
  EXPECT_NE(text.find("getpid+0x1 (libc.so"), std::string::npos) << text;
}

}  // namespace
}  // namespace barracuda::runtime
