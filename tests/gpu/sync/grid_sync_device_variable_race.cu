// As grid_sync_device_variable, but in round 9 the blocks read the __device__ array before the grid
// sync that orders its writes.
#include <cooperative_groups.h>
#include "suite.cuh"
namespace cg = cooperative_groups;

constexpr int kBlocks = 8, kThreads = 64, kN = kBlocks * kThreads;
__device__ int board[kN];

__global__ void rounds(int* out) {
  cg::grid_group grid = cg::this_grid();
  const int i = grid.thread_rank();
  for (int round = 0; round < 20; ++round) {
    board[i] = round * i;                                   // @A
    if (round == 9) out[i] += board[(i + 3 * kThreads) % kN];  // @B
    grid.sync();
    out[i] += board[(i + 3 * kThreads) % kN];
    grid.sync();
  }
}

int main() {
  int* out = zeroed<int>(kN);
  void* args[] = {&out};
  CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(rounds), kBlocks, kThreads, args));
  return finish("grid_sync_device_variable_race", fetch(out));
}
// EXPECT: race inter-block global RAW A B
