// Unified (managed) memory: the host initialises, a kernel updates, the host reads after
// cudaDeviceSynchronize: race-free.
#include "suite.cuh"

__global__ void square(int* v) { v[threadIdx.x] *= v[threadIdx.x]; }

int main() {
  int* v = nullptr;
  CHECK(cudaMallocManaged(&v, 64 * sizeof(int)));
  for (int i = 0; i < 64; ++i) v[i] = i;
  square<<<1, 64>>>(v);
  CHECK(cudaDeviceSynchronize());
  return finish("managed_memory", v[63]);
}
// EXPECT: no-race
