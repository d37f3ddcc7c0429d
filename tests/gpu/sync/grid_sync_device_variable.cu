// Blocks exchange data across grid syncs through a __device__ array (memory no kernel argument points
// into, so checked apart from the arguments' memory) and through an argument buffer, for 20 rounds.
// Race-free.
#include <cooperative_groups.h>
#include "suite.cuh"
namespace cg = cooperative_groups;

constexpr int kBlocks = 8, kThreads = 64, kN = kBlocks * kThreads;
__device__ int board[kN];

__global__ void rounds(int* out) {
  cg::grid_group grid = cg::this_grid();
  const int i = grid.thread_rank();
  for (int round = 0; round < 20; ++round) {
    board[i] = round * i;
    out[i] = round;
    grid.sync();
    out[(i + kThreads) % kN] += board[(i + 3 * kThreads) % kN];
    grid.sync();
  }
}

int main() {
  int* out = zeroed<int>(kN);
  void* args[] = {&out};
  CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(rounds), kBlocks, kThreads, args));
  return finish("grid_sync_device_variable", fetch(out));
}
// EXPECT: no-race
