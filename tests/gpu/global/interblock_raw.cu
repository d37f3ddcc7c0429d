// Block 0 writes a word that block 1 reads in the same kernel: no barrier orders blocks.
#include "suite.cuh"

__global__ void publish_and_read(int* x, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) x[0] = 42;     // @A
  else out[0] = x[0];                 // @B
}

int main() {
  int* x = zeroed<int>(1);
  int* out = zeroed<int>(1);
  publish_and_read<<<2, 32>>>(x, out);
  return finish("interblock_raw", fetch(out));
}
// EXPECT: race inter-block global RAW A B
