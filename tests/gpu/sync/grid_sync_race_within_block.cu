// After a grid sync, warps of one block exchange data through global memory without __syncthreads():
// the grid sync before it orders nothing between them.
#include <cooperative_groups.h>
#include "suite.cuh"
namespace cg = cooperative_groups;

__global__ void exchange(int* data, int* out) {
  cg::grid_group grid = cg::this_grid();
  const int i = grid.thread_rank();
  data[i] = 1;
  grid.sync();
  data[i] = i;                                                        // @A
  const int partner = blockIdx.x * blockDim.x + (threadIdx.x + 32) % blockDim.x;
  out[i] = data[partner];                                             // @B
  grid.sync();
}

int main() {
  const int blocks = 4, threads = 128;
  int* data = zeroed<int>(blocks * threads);
  int* out = zeroed<int>(blocks * threads);
  void* args[] = {&data, &out};
  CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(exchange), blocks, threads, args));
  return finish("grid_sync_race_within_block", fetch(out));
}
// EXPECT: race inter-warp global RAW A B
