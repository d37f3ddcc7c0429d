// Persistent blocks pull work items from a global counter with atomicAdd; each item's output is
// written by the one block that pulled it: race-free.
#include "suite.cuh"

__global__ void worker(unsigned* next, int items, int* out) {
  __shared__ unsigned item;
  for (;;) {
    if (threadIdx.x == 0) item = atomicAdd(next, 1u);
    __syncthreads();
    unsigned mine = item;
    __syncthreads();
    if (mine >= static_cast<unsigned>(items)) return;
    out[mine * blockDim.x + threadIdx.x] = blockIdx.x;
  }
}

int main() {
  const int items = 200, threads = 64;
  unsigned* next = zeroed<unsigned>(1);
  int* out = zeroed<int>(items * threads);
  worker<<<6, threads>>>(next, items, out);
  return finish("work_queue", fetch(next) >= items);
}
// EXPECT: no-race
