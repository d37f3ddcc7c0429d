// Lanes of 16-thread cooperative-groups tiles write their shared slot, tile.sync(), then read the slot
// of lane t ^ 16: the lane in the *other* tile of the same warp. tile.sync() orders only the 16 lanes
// of the caller's tile (a __syncwarp with the tile's half-warp mask), so the read and the other tile's
// write are unordered: an intra-warp race under independent thread scheduling. Under the lockstep warp
// model the whole warp executes the store before the load, so the write is ordered before the read.
#include <cooperative_groups.h>

#include "suite.cuh"
namespace cg = cooperative_groups;

constexpr int THREADS = 64;

__global__ void read_other_tile(int* out) {
  __shared__ int slot[THREADS];
  const auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  const int t = threadIdx.x;
  slot[t] = t + 1;            // @A
  tile.sync();
  out[t] = slot[t ^ 16];      // @B
}

int main() {
  int* out = zeroed<int>(THREADS);
  read_other_tile<<<1, THREADS>>>(out);
  return finish("cg_tile_sync_wrong_tile", fetch(out));  // lane 16's value, 17, once it has landed
}
// EXPECT: race intra-warp shared RAW A B
// EXPECT-LOCKSTEP: no-race
