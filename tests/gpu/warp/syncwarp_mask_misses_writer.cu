// Lanes 16..31 write; lanes 0..15 then synchronise only among themselves and read what the upper
// half wrote: the writers are not in the __syncwarp mask.
#include "suite.cuh"

__global__ void read_upper(int* out) {
  __shared__ int s[32];
  int lane = threadIdx.x;
  if (lane >= 16) s[lane] = lane;     // @A
  if (lane < 16) {
    __syncwarp(0x0000ffffu);
    out[lane] = s[lane + 16];         // @B
  }
}

int main() {
  int* out = zeroed<int>(16);
  read_upper<<<1, 32>>>(out);
  return finish("syncwarp_mask_misses_writer", fetch(out));
}
// EXPECT: race intra-warp shared RAW A B
// EXPECT-LOCKSTEP: no-race
