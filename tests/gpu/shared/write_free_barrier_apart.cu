// As write_free_split_barriers, but warp 1 passes a second barrier before its store: the read (the
// block's first interval) and the store (its second) are ordered, and the read's interval holds no
// store, so it is neither logged nor checked. Every thread passes two barriers.
#include "suite.cuh"

__global__ void barrier_apart(const int* warps_that_read, int* out) {
  __shared__ int s[64];
  const int t = threadIdx.x;
  s[t] = t;
  int seen = 0;
  if (t / 32 < warps_that_read[0]) {
    __syncthreads();
    seen = s[t + 32];
    __syncthreads();
  } else {
    __syncthreads();
    __syncthreads();
    s[t] = -t;
  }
  out[t] = seen;
}

int main() {
  int* warps = zeroed<int>(1);
  const int one = 1;
  CHECK(cudaMemcpy(warps, &one, sizeof one, cudaMemcpyHostToDevice));
  int* out = zeroed<int>(64);
  barrier_apart<<<1, 64>>>(warps, out);
  return finish("write_free_barrier_apart", fetch(out));
}
// EXPECT: no-race
