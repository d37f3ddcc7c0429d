// Dynamic parallelism (CDP2), a hand-off: the parent block's threads fill `x` and `copy`,
// __syncthreads, and thread 0 launches a child grid of two blocks that rewrites every element of `x`
// from `x` and from a neighbour's `copy`, elements other parent threads wrote. The barrier orders those
// writes into thread 0, the launch orders thread 0's past into the child, and the parent touches
// nothing after the launch.
#include "suite.cuh"

__global__ void child_mixes(int* x, const int* copy) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  x[i] = 2 * x[i] + copy[(i + 1) % (gridDim.x * blockDim.x)];
}

__global__ void parent(int* x, int* copy) {
  x[threadIdx.x] = copy[threadIdx.x] = threadIdx.x + 1;
  __syncthreads();
  if (threadIdx.x == 0) child_mixes<<<2, blockDim.x / 2>>>(x, copy);
}

int main() {
  int* x = zeroed<int>(128);
  int* copy = zeroed<int>(128);
  parent<<<1, 128>>>(x, copy);
  return finish("handoff_norace", fetch(x + 127));
}
// BUILD: -rdc=true
// EXPECT: no-race
