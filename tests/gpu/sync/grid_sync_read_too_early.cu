// Cooperative grid whose blocks read their neighbour's data before grid.sync() instead of after.
#include <cooperative_groups.h>
#include "suite.cuh"
namespace cg = cooperative_groups;

__global__ void two_phases(int* data, int* out) {
  cg::grid_group grid = cg::this_grid();
  int i = grid.thread_rank(), n = grid.size();
  data[i] = i * 2;                          // @A
  int neighbour = data[(i + 128) % n];      // @B
  grid.sync();
  out[i] = neighbour;
}

int main() {
  const int blocks = 4, threads = 128;
  int* data = zeroed<int>(blocks * threads);
  int* out = zeroed<int>(blocks * threads);
  void* args[] = {&data, &out};
  CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(two_phases), blocks, threads, args));
  return finish("grid_sync_read_too_early", fetch(out));
}
// EXPECT: race inter-block global RAW A B
