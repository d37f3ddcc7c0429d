// A pointer to a thread's local array passed to a non-inlined function: generic accesses that resolve
// to local memory, private to each thread: race-free.
#include "suite.cuh"

__device__ __noinline__ void fill(int* scratch, int n, int seed) {
  for (int i = 0; i < n; ++i) scratch[i] = seed * i;
}

__global__ void use_scratch(int* out) {
  int scratch[8];
  fill(scratch, 8, threadIdx.x);
  out[blockIdx.x * blockDim.x + threadIdx.x] = scratch[threadIdx.x % 8];
}

int main() {
  int* out = zeroed<int>(2 * 64);
  use_scratch<<<2, 64>>>(out);
  return finish("local_via_pointer", fetch(out + 9));
}
// EXPECT: no-race
