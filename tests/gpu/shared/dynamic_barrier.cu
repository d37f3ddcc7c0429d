// Dynamic shared memory rotation ordered by __syncthreads: race-free.
#include "suite.cuh"

__global__ void rotate(int* out) {
  extern __shared__ int s[];
  int t = threadIdx.x;
  s[t] = t * t;
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = s[(t + 64) % blockDim.x];
}

int main() {
  int* out = zeroed<int>(2 * 128);
  rotate<<<2, 128, 128 * sizeof(int)>>>(out);
  return finish("dynamic_barrier", fetch(out));
}
// EXPECT: no-race
