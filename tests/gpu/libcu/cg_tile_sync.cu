// Cooperative-groups tiles of 16 threads (tiled_partition<16>, two per warp) pass values round within
// the tile through shared memory: each lane writes its slot, tile.sync(), reads its right neighbour's
// slot, tile.sync() (every lane of the tile has read before any overwrites), writes what it read into
// its own slot, tile.sync(), and reads its left neighbour's new value. Every slot is read only by lanes
// of the tile that wrote it, and tile.sync() orders the lanes of a tile (a __syncwarp over the tile's
// half of the warp), both for the write-read and the read-write hand-overs: race-free.
#include <cooperative_groups.h>

#include "suite.cuh"
namespace cg = cooperative_groups;

constexpr int THREADS = 128;

__global__ void rotate_in_tiles(int* out) {
  __shared__ int slot[THREADS];
  const auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  const int t = threadIdx.x;
  const int base = t - static_cast<int>(tile.thread_rank());
  const int rank = static_cast<int>(tile.thread_rank());
  slot[t] = blockIdx.x * THREADS + t;
  tile.sync();
  const int right = slot[base + (rank + 1) % 16];
  tile.sync();
  slot[t] = right;
  tile.sync();
  out[blockIdx.x * THREADS + t] = slot[base + (rank + 15) % 16];
}

int main() {
  int* out = zeroed<int>(2 * THREADS);
  rotate_in_tiles<<<2, THREADS>>>(out);
  return finish("cg_tile_sync", fetch(out + THREADS + 17));  // lane 17 of block 1 gets its own value: 145
}
// EXPECT: no-race
