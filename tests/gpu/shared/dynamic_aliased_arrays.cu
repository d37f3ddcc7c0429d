// Two arrays carved out of one dynamic shared buffer with a wrong offset: b starts inside a, so
// warp 0's b[] stores land on a[] elements warp 1 stores.
#include "suite.cuh"

__global__ void two_arrays(int* out) {
  extern __shared__ int smem[];
  int* a = smem;
  int* b = smem + 32;  // should be smem + blockDim.x
  int t = threadIdx.x;
  a[t] = t;            // @A
  b[t] = -t;           // @B
  __syncthreads();
  out[t] = a[t] + b[t];
}

int main() {
  int* out = zeroed<int>(64);
  two_arrays<<<1, 64, 96 * sizeof(int)>>>(out);
  return finish("dynamic_aliased_arrays", fetch(out + 40));
}
// EXPECT: race inter-warp shared WAW A B
