// Cooperative-groups tiles of 16 threads exchange through shared memory with tile.sync(): race-free.
#include <cooperative_groups.h>
#include "suite.cuh"
namespace cg = cooperative_groups;

__global__ void tile_rotate(int* out) {
  __shared__ int s[64];
  auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  int t = threadIdx.x;
  s[t] = t;
  tile.sync();
  int base = t - tile.thread_rank();
  out[t] = s[base + (tile.thread_rank() + 1) % 16];
}

int main() {
  int* out = zeroed<int>(64);
  tile_rotate<<<1, 64>>>(out);
  return finish("tiled_partition", fetch(out));
}
// EXPECT: no-race
