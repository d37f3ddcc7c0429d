// One stage of a block-scope cuda::pipeline: every thread copies its element into shared memory with
// cuda::memcpy_async (cp.async) and commits, but warp 1 peeks at the element of thread t - 32 (warp 0)
// before consumer_wait(). Only consumer_wait() orders another thread's copy before a read, so the peek
// races with warp 0's asynchronous copy (an inter-warp race in shared memory, RAW when the copy is
// issued first; the tool logs a cp.async as a shared write by the issuing thread when it is issued, as
// in hopper/cp_async_no_barrier). The reads after consumer_wait() are ordered.
#include <cooperative_groups.h>
#include <cuda/pipeline>

#include "suite.cuh"
namespace cg = cooperative_groups;

constexpr int THREADS = 64;

__global__ void stage_once(const int* in, int* out, int* peeked) {
  __shared__ int stage[THREADS];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 1> state;
  auto pipe = cuda::make_pipeline(cg::this_thread_block(), &state);
  const int t = threadIdx.x;
  pipe.producer_acquire();
  cuda::memcpy_async(&stage[t], &in[t], cuda::aligned_size_t<sizeof(int)>(sizeof(int)), pipe);  // @A
  pipe.producer_commit();
  const int early = t >= 32 ? stage[t - 32] : 0;                                                 // @B
  pipe.consumer_wait();
  out[t] = stage[THREADS - 1 - t];
  pipe.consumer_release();
  peeked[t] = early;
}

int main() {
  int* in = zeroed<int>(THREADS);
  CHECK(cudaMemset(in, 2, THREADS * sizeof(int)));  // every element 0x02020202
  int* out = zeroed<int>(THREADS);
  int* peeked = zeroed<int>(THREADS);
  stage_once<<<1, THREADS>>>(in, out, peeked);
  return finish("pipeline_read_before_wait", fetch(out));  // 0x02020202 = 33686018
}
// EXPECT: race inter-warp shared RAW A B
