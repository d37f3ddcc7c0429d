// Two-stage cuda::pipeline double buffering over 8 tiles: producer_acquire / memcpy_async /
// producer_commit, consumer_wait, __syncthreads, compute, consumer_release: race-free.
#include <cooperative_groups.h>
#include <cuda/pipeline>
#include "suite.cuh"
namespace cg = cooperative_groups;

constexpr int TILE = 128, TILES = 8, STAGES = 2;

__global__ void sum_tiles(const int* in, int* out) {
  __shared__ int buf[STAGES][TILE];
  auto block = cg::this_thread_block();
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  int acc = 0;
  for (int fetch_tile = 0, use_tile = 0; use_tile < TILES; ++use_tile) {
    for (; fetch_tile < TILES && fetch_tile < use_tile + STAGES; ++fetch_tile) {
      pipe.producer_acquire();
      cuda::memcpy_async(&buf[fetch_tile % STAGES][threadIdx.x], &in[fetch_tile * TILE + threadIdx.x],
                         sizeof(int), pipe);
      pipe.producer_commit();
    }
    pipe.consumer_wait();
    block.sync();
    acc += buf[use_tile % STAGES][(threadIdx.x + 1) % TILE];
    block.sync();
    pipe.consumer_release();
  }
  out[threadIdx.x] = acc;
}

int main() {
  int* in = zeroed<int>(TILE * TILES);
  int* out = zeroed<int>(TILE);
  sum_tiles<<<1, TILE>>>(in, out);
  return finish("memcpy_async_pipeline", fetch(out));
}
// EXPECT: no-race
