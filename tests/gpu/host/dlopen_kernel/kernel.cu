// The kernel of dlopen_kernel, built into a shared library that the program loads with dlopen.
#include "suite.cuh"

__global__ void store_block_id(int* x) {
  if (threadIdx.x == 0) x[0] = blockIdx.x + 1;  // @A
}

extern "C" int run_plugin() {
  int* x = zeroed<int>(1);
  store_block_id<<<2, 32>>>(x);
  return finish("dlopen_kernel", fetch(x));
}
