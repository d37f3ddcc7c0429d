#include "runtime/launch_filter.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace barracuda::runtime {
namespace {

// The launches of `kernels` (in order) that the filter checks.
std::vector<int> checked(LaunchFilterSettings settings, const std::vector<std::string>& kernels) {
  LaunchFilter filter(std::move(settings));
  std::vector<int> indices;
  for (size_t i = 0; i < kernels.size(); ++i) {
    if (filter.check(kernels[i])) indices.push_back(static_cast<int>(i));
  }
  return indices;
}

const std::vector<std::string> kRun = {"gemm", "relu", "gemm", "gemm", "relu", "gemm", "norm"};

TEST(LaunchFilter, ChecksEverythingByDefault) {
  EXPECT_TRUE(LaunchFilter({}).checks_everything());
  EXPECT_EQ(checked({}, kRun), (std::vector<int>{0, 1, 2, 3, 4, 5, 6}));
}

TEST(LaunchFilter, SkipThenCountInIssueOrder) {
  EXPECT_EQ(checked({.skip = 2}, kRun), (std::vector<int>{2, 3, 4, 5, 6}));
  EXPECT_EQ(checked({.count = 3}, kRun), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(checked({.skip = 2, .count = 2}, kRun), (std::vector<int>{2, 3}));
}

TEST(LaunchFilter, SampleChecksTheFirstLaunchesOfEachKernel) {
  EXPECT_EQ(checked({.sample = 1}, kRun), (std::vector<int>{0, 1, 6}));
  EXPECT_EQ(checked({.sample = 2}, kRun), (std::vector<int>{0, 1, 2, 4, 6}));
}

TEST(LaunchFilter, KernelNameSelectsBeforeTheCounts) {
  EXPECT_EQ(checked({.kernels = std::regex("^gemm$"), .skip = 1, .count = 2}, kRun), (std::vector<int>{2, 3}));
  EXPECT_FALSE(LaunchFilter({.kernels = std::regex("gemm")}).checks_everything());
}

}  // namespace
}  // namespace barracuda::runtime
