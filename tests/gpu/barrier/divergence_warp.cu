// Only warp 0 reaches __syncthreads; warp 1 skips it and exits (which releases the barrier).
#include "suite.cuh"

__global__ void first_warp_waits(int* out) {
  if (threadIdx.x < 32) {
    __syncthreads();  // @A
    out[threadIdx.x] = 1;
  }
}

int main() {
  int* out = zeroed<int>(32);
  first_warp_waits<<<1, 64>>>(out);
  return finish("divergence_warp", fetch(out));
}
// EXPECT: barrier-divergence A
