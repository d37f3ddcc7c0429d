// Shared atomics, then __syncthreads, then plain reads of the result: the barrier orders them.
#include "suite.cuh"

__global__ void progress(int* out) {
  __shared__ int done;
  if (threadIdx.x == 0) done = 0;
  __syncthreads();
  atomicAdd(&done, 1);
  __syncthreads();
  out[threadIdx.x] = done;
}

int main() {
  int* out = zeroed<int>(128);
  progress<<<1, 128>>>(out);
  return finish("atomic_then_barrier", fetch(out + 127));
}
// EXPECT: no-race
