// The split grid barrier (grid.barrier_arrive() ... grid.barrier_wait()): a block writes its
// neighbour's element between its arrival and its wait, where the neighbour reads it after its own
// wait. The write follows the writer's arrival, so nothing orders the two.
#include <cooperative_groups.h>
#include <utility>
#include "suite.cuh"
namespace cg = cooperative_groups;

__global__ void split(int* data, int* out) {
  cg::grid_group grid = cg::this_grid();
  const int i = grid.thread_rank(), n = grid.size();
  auto token = grid.barrier_arrive();
  data[(i + blockDim.x) % n] = 2 * i;       // @A
  grid.barrier_wait(std::move(token));
  out[i] = data[i];                         // @B
}

int main() {
  const int blocks = 4, threads = 128;
  int* data = zeroed<int>(blocks * threads);
  int* out = zeroed<int>(blocks * threads);
  void* args[] = {&data, &out};
  CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(split), blocks, threads, args));
  return finish("grid_sync_split_arrive_race", fetch(out));
}
// EXPECT: race inter-block global RAW A B
