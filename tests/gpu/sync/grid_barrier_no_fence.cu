// The hand-rolled grid barrier without its fences: blocks wait for each other in time, but the
// neighbour's data stores are not ordered before the reads.
#include "suite.cuh"

__device__ void grid_barrier(unsigned* arrived) {
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicAdd(arrived, 1u);
    while (*static_cast<volatile unsigned*>(arrived) < gridDim.x) {}
  }
  __syncthreads();
}

__global__ void rotate(int* data, int* out, unsigned* arrived) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i] = i;                                                   // @A
  grid_barrier(arrived);
  out[i] = data[(i + blockDim.x) % (gridDim.x * blockDim.x)];    // @B
}

int main() {
  const int blocks = 4, threads = 64;
  int* data = zeroed<int>(blocks * threads);
  int* out = zeroed<int>(blocks * threads);
  unsigned* arrived = zeroed<unsigned>(1);
  rotate<<<blocks, threads>>>(data, out, arrived);
  return finish("grid_barrier_no_fence", fetch(out));
}
// EXPECT: race inter-block global RAW A B
