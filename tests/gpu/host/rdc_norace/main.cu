// Separate compilation with a __device__ global variable and a function defined in another
// translation unit: each thread updates its own element: race-free.
#include "suite.cuh"

extern __device__ int scale_factor;
extern __device__ int scaled(int v);

__global__ void apply(int* x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  x[i] = scaled(i) + scale_factor;
}

int main() {
  int* x = zeroed<int>(4 * 64);
  apply<<<4, 64>>>(x);
  return finish("rdc_norace", fetch(x + 255));
}
// BUILD: -rdc=true
// EXPECT: no-race
