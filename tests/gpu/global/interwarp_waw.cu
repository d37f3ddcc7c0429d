// Lane 0 of each of two warps of one block stores to the same global word; no barrier between them.
#include "suite.cuh"

__global__ void leaders_store(int* x) {
  if (threadIdx.x % 32 == 0) x[0] = threadIdx.x;  // @A
}

int main() {
  int* x = zeroed<int>(1);
  leaders_store<<<1, 64>>>(x);
  return finish("interwarp_waw", fetch(x));
}
// EXPECT: race inter-warp global WAW A A
