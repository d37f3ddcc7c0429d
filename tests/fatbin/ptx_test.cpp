#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "fatbin/format.h"
#include "fatbin/ptx_scan.h"
#include "fatbin/ptx_select.h"
#include "test_entries.h"

namespace barracuda::fatbin {
namespace {

using ::testing::ElementsAre;

TEST(PtxKernels, ListsEntriesNotFunctionsOrComments) {
  constexpr std::string_view ptx =
      "// .globl _Z4fakev\n"
      ".visible .entry _Z7add_onePii(\n"
      ".param .u64 a\n)\n{\n}\n"
      ".func helper()\n{\n}\n"
      "\t.weak\t.entry weak_kernel()\n{\n}\n"
      ".entry plain_kernel\n{\n}\n"
      ".visible .entry_not_a_kernel()\n";
  EXPECT_THAT(ptx_kernels(ptx), ElementsAre("_Z7add_onePii", "weak_kernel", "plain_kernel"));
  EXPECT_THAT(ptx_kernels(testing::kSamplePtx), ElementsAre("add_one", "scale"));
  EXPECT_TRUE(ptx_kernels("").empty());
}

TEST(PtxDirectives, GiveIsaVersionAndTarget) {
  constexpr std::string_view ptx = "//\n// .version 1.0 in a comment\n.version 8.7\n.target sm_90a, debug\n";
  EXPECT_EQ(ptx_isa_version(ptx), (IsaVersion{8, 7}));
  EXPECT_EQ(ptx_target(ptx), SmArch{90});
  EXPECT_EQ(ptx_isa_version(".version x.y\n"), std::nullopt);
  EXPECT_EQ(ptx_target(".target compute_90\n"), std::nullopt);
}

Entry ptx(std::uint32_t arch, IsaVersion version, std::uint64_t extra_flags = 0) {
  Entry entry = testing::ptx_entry(Compression::None, {arch});
  entry.version = version;
  entry.flags |= extra_flags;
  return entry;
}

TEST(SelectPtx, TakesTheHighestArchNotAboveTheDeviceThenTheHighestIsa) {
  std::vector<Entry> entries{ptx(80, {9, 0}), ptx(90, {8, 5}), ptx(90, {9, 0}), ptx(100, {9, 0}),
                             testing::cubin_entry(Compression::None)};
  EXPECT_EQ(select_ptx(entries, {90}), &entries[2]);
  EXPECT_EQ(select_ptx(entries, {89}), &entries[0]);
  EXPECT_EQ(select_ptx(entries, {120}), &entries[3]);
  EXPECT_EQ(select_ptx(entries, {75}), nullptr);
}

TEST(SelectPtx, KeepsArchAndFamilySpecificPtxToTheirDevices) {
  std::vector<Entry> entries{ptx(80, {9, 0}), ptx(90, {9, 0}, flag::kArchSpecific), ptx(100, {9, 0}, flag::kFamilySpecific)};
  EXPECT_EQ(select_ptx(entries, {90}), &entries[1]);
  EXPECT_EQ(select_ptx(entries, {100}), &entries[2]);
  EXPECT_EQ(select_ptx(entries, {103}), &entries[2]);
  EXPECT_EQ(select_ptx(entries, {120}), &entries[0]);
}

TEST(SelectPtxPerContainer, TakesOnePtxFromEachObjectOfALinkedImage) {
  std::vector<Container> containers(3);
  containers[0].entries = {testing::cubin_entry(Compression::None)};  // the linked cubin: no PTX
  containers[1].entries = {ptx(80, {9, 0}), ptx(90, {9, 0})};
  containers[2].entries = {ptx(90, {9, 0}), testing::cubin_entry(Compression::None)};
  EXPECT_THAT(select_ptx_per_container(containers, {90}), ElementsAre(&containers[1].entries[1], &containers[2].entries[0]));
  EXPECT_THAT(select_ptx_per_container(containers, {86}), ElementsAre(&containers[1].entries[0]));
}

}  // namespace
}  // namespace barracuda::fatbin
