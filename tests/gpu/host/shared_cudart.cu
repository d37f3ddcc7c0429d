// Linked against the shared CUDA runtime (libcudart.so) instead of nvcc's static default: the
// inter-block race must be caught the same way.
#include "suite.cuh"

__global__ void store_block_id(int* x) {
  if (threadIdx.x == 0) x[0] = blockIdx.x + 1;  // @A
}

int main() {
  int* x = zeroed<int>(1);
  store_block_id<<<2, 32>>>(x);
  return finish("shared_cudart", fetch(x));
}
// BUILD: -cudart shared
// EXPECT: race inter-block global WAW A A
