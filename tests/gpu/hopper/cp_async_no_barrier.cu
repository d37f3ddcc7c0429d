// cp.async copies waited for by each thread (its own copies only) but no __syncthreads: warp 1 reads
// elements that warp 0's asynchronous copies write.
#include <cuda_pipeline.h>
#include "suite.cuh"

__global__ void staged(const int* in, int* out) {
  __shared__ int tile[64];
  int t = threadIdx.x;
  __pipeline_memcpy_async(&tile[t], &in[t], sizeof(int));  // @A
  __pipeline_commit();
  __pipeline_wait_prior(0);
  out[t] = tile[t ^ 32];                                   // @B
}

int main() {
  int* in = zeroed<int>(64);
  int* out = zeroed<int>(64);
  staged<<<1, 64>>>(in, out);
  return finish("cp_async_no_barrier", fetch(out));
}
// EXPECT: race inter-warp shared RAW A B
