#include "report/toolkit_headers.h"

#include <gtest/gtest.h>

namespace barracuda::report {
namespace {

TEST(ToolkitHeaders, TheToolkitsHeadersInEveryLayout) {
  EXPECT_TRUE(in_toolkit_headers("/usr/local/cuda/include/cub/device/dispatch/dispatch_radix_sort.cuh"));
  EXPECT_TRUE(in_toolkit_headers("/usr/local/cuda-13.0/targets/x86_64-linux/include/cooperative_groups/details/sync.h"));
  EXPECT_TRUE(in_toolkit_headers("/opt/cuda-12.4/include/thrust/system/cuda/detail/sort.h"));
  EXPECT_TRUE(in_toolkit_headers("/home/ci/.venv/lib/python3.12/site-packages/nvidia/cuda_cccl/include/cuda/std/atomic"));
  EXPECT_TRUE(in_toolkit_headers("/usr/local/cuda/targets/x86_64-linux/include/cuda/barrier"));
}

TEST(ToolkitHeaders, TheUsersOwnFilesAreNot) {
  EXPECT_FALSE(in_toolkit_headers("/work/app/src/sort.cu"));
  EXPECT_FALSE(in_toolkit_headers("/home/me/cuda-projects/include/grid.cuh")) << "cuda- without a version";
  EXPECT_FALSE(in_toolkit_headers("/home/me/mycuda/kernels.cuh"));
  EXPECT_FALSE(in_toolkit_headers(""));
}

}  // namespace
}  // namespace barracuda::report
