// Half of a warp reaches a (non-.aligned) block barrier; the other half exits.
#include "suite.cuh"

__global__ void half_warp_waits(int* out) {
  if (threadIdx.x < 16) {
    asm volatile("barrier.sync 0;" ::: "memory");  // @A
    out[threadIdx.x] = 1;
  }
}

int main() {
  int* out = zeroed<int>(16);
  half_warp_waits<<<1, 32>>>(out);
  return finish("divergence_lanes", fetch(out));
}
// EXPECT: barrier-divergence A
