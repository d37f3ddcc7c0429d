// Lanes 0..15 exchange through shared memory and synchronise with __syncwarp(0x0000ffff); the
// other half does the same with its own mask: race-free.
#include "suite.cuh"

__global__ void half_exchange(int* out) {
  __shared__ int s[32];
  int lane = threadIdx.x;
  unsigned mask = lane < 16 ? 0x0000ffffu : 0xffff0000u;
  s[lane] = lane * 5;
  __syncwarp(mask);
  out[lane] = s[lane ^ 8];  // stays within the same half
}

int main() {
  int* out = zeroed<int>(32);
  half_exchange<<<1, 32>>>(out);
  return finish("syncwarp_half_mask", fetch(out));
}
// EXPECT: no-race
