// Two blocks store different values to the same global word with nothing ordering them.
#include "suite.cuh"

__global__ void store_block_id(int* x) {
  if (threadIdx.x == 0) x[0] = blockIdx.x + 1;  // @A
}

int main() {
  int* x = zeroed<int>(1);
  store_block_id<<<2, 32>>>(x);
  return finish("interblock_waw", fetch(x));
}
// EXPECT: race inter-block global WAW A A
