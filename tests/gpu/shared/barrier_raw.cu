// The exchange of missing_barrier_raw with __syncthreads between write and read: race-free.
#include "suite.cuh"

__global__ void exchange(const int* in, int* out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  out[blockIdx.x * 64 + t] = s[t ^ 32];  // each block its own slice
}

int main() {
  int* in = zeroed<int>(64);
  int* out = zeroed<int>(4 * 64);
  exchange<<<4, 64>>>(in, out);
  return finish("barrier_raw", fetch(out));
}
// EXPECT: no-race
