// Dynamic parallelism (CDP2): the parent fills `x`, synchronises, and thread 0 launches a child grid
// that reads it; then thread 0 overwrites x[5]. The launch orders only what came before it: the
// child's read of x[5] and the parent's later write are unordered (the parent never sees the child, nor
// the child what the parent does after the launch). The child keeps only whether the value was positive
// (true of both), so the result is the same whichever it read.
#include "suite.cuh"

__global__ void child_reads(const int* x, int* positive) {
  positive[threadIdx.x] = x[threadIdx.x] > 0;  // @A
}

__global__ void parent(int* x, int* positive) {
  x[threadIdx.x] = threadIdx.x + 1;
  __syncthreads();
  if (threadIdx.x == 0) {
    child_reads<<<1, blockDim.x>>>(x, positive);
    x[5] = 100;  // @B
  }
}

int main() {
  int* x = zeroed<int>(32);
  int* positive = zeroed<int>(32);
  parent<<<1, 32>>>(x, positive);
  return finish("parent_child_race", fetch(x + 5) + fetch(positive + 5));
}
// BUILD: -rdc=true
// EXPECT: race inter-block global WAR A B
