// Rounds separated by grid syncs; in round 37 each block reads its neighbour block's element of the
// buffer that same round writes, before the grid sync that would order them.
#include <cooperative_groups.h>
#include "suite.cuh"
namespace cg = cooperative_groups;

__global__ void rounds(int* data, int* out) {
  cg::grid_group grid = cg::this_grid();
  const int i = grid.thread_rank(), n = grid.size();
  for (int round = 0; round < 50; ++round) {
    if (round == 37) {
      data[i] = round;                          // @A
      out[i] += data[(i + blockDim.x) % n];     // @B
    } else {
      data[i] = round + i;
    }
    grid.sync();
    out[i] += data[(i + 5 * blockDim.x) % n];
    grid.sync();
  }
}

int main() {
  const int blocks = 8, threads = 64;
  int* data = zeroed<int>(blocks * threads);
  int* out = zeroed<int>(blocks * threads);
  void* args[] = {&data, &out};
  CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(rounds), blocks, threads, args));
  return finish("grid_sync_race_in_late_round", fetch(out));
}
// EXPECT: race inter-block global RAW A B
