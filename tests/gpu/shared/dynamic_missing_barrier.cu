// Dynamic shared memory (extern __shared__) filled and read across warps without a barrier.
#include "suite.cuh"

__global__ void rotate(int* out) {
  extern __shared__ int s[];
  int t = threadIdx.x;
  s[t] = t * t;                                 // @A
  out[t] = s[(t + 64) % blockDim.x];            // @B
}

int main() {
  int* out = zeroed<int>(128);
  rotate<<<1, 128, 128 * sizeof(int)>>>(out);
  return finish("dynamic_missing_barrier", fetch(out));
}
// EXPECT: race inter-warp shared RAW A B
