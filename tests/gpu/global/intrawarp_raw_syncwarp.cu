// The neighbour exchange of intrawarp_raw with __syncwarp between write and read: race-free.
#include "suite.cuh"

__global__ void neighbour_read(int* buf, int* out) {
  int lane = threadIdx.x;
  buf[lane] = lane + 1;
  __syncwarp();
  out[lane] = buf[lane ^ 1];
}

int main() {
  int* buf = zeroed<int>(32);
  int* out = zeroed<int>(32);
  neighbour_read<<<1, 32>>>(buf, out);
  return finish("intrawarp_raw_syncwarp", fetch(out));
}
// EXPECT: no-race
