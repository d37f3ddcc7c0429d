// A block-scope cuda::pipeline with two stages (pipeline_shared_state in shared memory) stages six
// tiles of a global array through shared memory: every thread issues cuda::memcpy_async of its own
// element (cp.async), producer_commit(); after consumer_wait() it reads the element that thread
// 127 - t copied (other warps' copies), then consumer_release(). With a block-scope pipeline,
// consumer_wait() waits for the stage's barrier, which completes once every thread of the block has
// committed and its copies have landed, so each read is ordered after the copy it reads; and
// producer_acquire() waits until every thread released the stage, so a copy into a reused stage is
// ordered after the reads of its previous tile. No __syncthreads is needed: race-free.
#include <cooperative_groups.h>
#include <cuda/pipeline>

#include "suite.cuh"
namespace cg = cooperative_groups;

constexpr int THREADS = 128, TILES = 6, STAGES = 2;

__global__ void sum_tiles(const int* in, int* out) {
  __shared__ int stage[STAGES][THREADS];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, STAGES> state;
  auto pipe = cuda::make_pipeline(cg::this_thread_block(), &state);
  const int t = threadIdx.x;
  const int* tiles = in + blockIdx.x * TILES * THREADS;
  int acc = 0;
  for (int fetched = 0, used = 0; used < TILES; ++used) {
    for (; fetched < TILES && fetched < used + STAGES; ++fetched) {
      pipe.producer_acquire();
      cuda::memcpy_async(&stage[fetched % STAGES][t], &tiles[fetched * THREADS + t],
                         cuda::aligned_size_t<sizeof(int)>(sizeof(int)), pipe);
      pipe.producer_commit();
    }
    pipe.consumer_wait();
    acc += stage[used % STAGES][THREADS - 1 - t];
    pipe.consumer_release();
  }
  out[blockIdx.x * THREADS + t] = acc;
}

int main() {
  int* in = zeroed<int>(2 * TILES * THREADS);
  CHECK(cudaMemset(in, 1, 2 * TILES * THREADS * sizeof(int)));  // every element 0x01010101
  int* out = zeroed<int>(2 * THREADS);
  sum_tiles<<<2, THREADS>>>(in, out);
  return finish("pipeline_producer_consumer", fetch(out + THREADS + 5));  // 6 * 0x01010101 = 101058054
}
// EXPECT: no-race
