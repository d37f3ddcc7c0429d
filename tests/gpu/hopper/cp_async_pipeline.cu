// Ampere-style asynchronous copies (cp.async) into shared memory with the __pipeline primitives:
// commit, wait for completion, __syncthreads, then read other threads' elements: race-free.
#include <cuda_pipeline.h>
#include "suite.cuh"

__global__ void staged(const int* in, int* out) {
  __shared__ int tile[128];
  int t = threadIdx.x;
  __pipeline_memcpy_async(&tile[t], &in[blockIdx.x * 128 + t], sizeof(int));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[blockIdx.x * 128 + t] = tile[127 - t];
}

int main() {
  int* in = zeroed<int>(4 * 128);
  int* out = zeroed<int>(4 * 128);
  staged<<<4, 128>>>(in, out);
  return finish("cp_async_pipeline", fetch(out));
}
// EXPECT: no-race
