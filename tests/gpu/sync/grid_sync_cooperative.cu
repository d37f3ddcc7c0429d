// Cooperative launch (cudaLaunchCooperativeKernel) with cooperative_groups grid.sync() between two
// phases that exchange data across blocks: race-free.
#include <cooperative_groups.h>
#include "suite.cuh"
namespace cg = cooperative_groups;

__global__ void two_phases(int* data, int* out) {
  cg::grid_group grid = cg::this_grid();
  int i = grid.thread_rank(), n = grid.size();
  data[i] = i * 2;
  grid.sync();
  out[i] = data[(i + 97) % n];
  grid.sync();
  data[i] = out[(i + 1) % n];
}

int main() {
  const int blocks = 8, threads = 128;
  int* data = zeroed<int>(blocks * threads);
  int* out = zeroed<int>(blocks * threads);
  void* args[] = {&data, &out};
  CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(two_phases), blocks, threads, args));
  return finish("grid_sync_cooperative", fetch(data));
}
// EXPECT: no-race
