// Hand-rolled grid barrier for a co-resident grid (8 blocks): __syncthreads, thread 0 fences,
// counts in atomically and spins on a volatile read, fences again, __syncthreads. Blocks then read
// their neighbour's data: race-free.
#include "suite.cuh"

__device__ void grid_barrier(unsigned* arrived) {
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    atomicAdd(arrived, 1u);
    while (*static_cast<volatile unsigned*>(arrived) < gridDim.x) {}
    __threadfence();
  }
  __syncthreads();
}

__global__ void rotate(int* data, int* out, unsigned* arrived) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i] = i;
  grid_barrier(arrived);
  out[i] = data[(i + blockDim.x) % (gridDim.x * blockDim.x)];
}

int main() {
  const int blocks = 8, threads = 64;
  int* data = zeroed<int>(blocks * threads);
  int* out = zeroed<int>(blocks * threads);
  unsigned* arrived = zeroed<unsigned>(1);
  rotate<<<blocks, threads>>>(data, out, arrived);
  return finish("grid_barrier_handrolled", fetch(out));
}
// EXPECT: no-race
