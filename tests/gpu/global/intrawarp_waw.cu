// All 32 lanes of one warp store different values to one global word.
#include "suite.cuh"

__global__ void lanes_store(int* x) {
  x[0] = threadIdx.x;  // @A
}

int main() {
  int* x = zeroed<int>(1);
  lanes_store<<<1, 32>>>(x);
  return finish("intrawarp_waw", fetch(x));
}
// EXPECT: race intra-warp global WAW A A
