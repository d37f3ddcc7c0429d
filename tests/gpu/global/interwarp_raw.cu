// Each thread reads the element the same lane of the other warp wrote, without __syncthreads.
#include "suite.cuh"

__global__ void swap_halves(int* buf, int* out) {
  int t = threadIdx.x;
  buf[t] = t * 3;           // @A
  out[t] = buf[t ^ 32];     // @B
}

int main() {
  int* buf = zeroed<int>(64);
  int* out = zeroed<int>(64);
  swap_halves<<<1, 64>>>(buf, out);
  return finish("interwarp_raw", fetch(out));
}
// EXPECT: race inter-warp global RAW A B
