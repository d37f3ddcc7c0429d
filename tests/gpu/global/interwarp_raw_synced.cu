// The same exchange between the two warps of a block, ordered by __syncthreads: race-free.
#include "suite.cuh"

__global__ void swap_halves(int* buf, int* out) {
  int t = threadIdx.x;
  buf[t] = t * 3;
  __syncthreads();
  out[t] = buf[t ^ 32];
}

int main() {
  int* buf = zeroed<int>(64);
  int* out = zeroed<int>(64);
  swap_halves<<<1, 64>>>(buf, out);
  return finish("interwarp_raw_synced", fetch(out));
}
// EXPECT: no-race
