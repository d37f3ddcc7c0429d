// All lanes of block 1 read one global word (a coefficient) that block 0 writes in the same kernel:
// an inter-block race. The kernel is barrier-only, so its global memory is checked on the GPU, and
// block 1's 32 reading lanes are checked together (apply_global_read_lanes). Block 1 waits a little
// so that the write usually comes first.
#include "suite.cuh"

__global__ void publish_coefficient(int* coefficient, int* out) {
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) coefficient[0] = 3;  // @A
  } else {
    __nanosleep(2000);
    out[threadIdx.x] = coefficient[0];  // @B
  }
}

int main() {
  int* coefficient = zeroed<int>(1);
  int* out = zeroed<int>(32);
  publish_coefficient<<<2, 32>>>(coefficient, out);
  return finish("broadcast_read_interblock", fetch(out));
}
// EXPECT: race inter-block global RAW A B
