// Lanes read their neighbour's global element right after writing their own, with no __syncwarp:
// racy under independent thread scheduling, ordered under the lockstep model.
#include "suite.cuh"

__global__ void neighbour_read(int* buf, int* out) {
  int lane = threadIdx.x;
  buf[lane] = lane + 1;          // @A
  out[lane] = buf[lane ^ 1];     // @B
}

int main() {
  int* buf = zeroed<int>(32);
  int* out = zeroed<int>(32);
  neighbour_read<<<1, 32>>>(buf, out);
  return finish("intrawarp_raw", fetch(out));
}
// EXPECT: race intra-warp global RAW A B
// EXPECT-LOCKSTEP: no-race
