// Two phases through one cuda::barrier<thread_scope_block> with arrive_and_wait(): each thread writes
// its slot, all wait, each reads its neighbour's slot, all wait, then overwrites its own slot. Both
// the write-read and the read-write hand-overs are ordered by the barrier's phases: race-free.
#include <cuda/barrier>

#include "suite.cuh"

__global__ void rotate(int* out) {
  __shared__ int slot[128];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  slot[threadIdx.x] = threadIdx.x;
  bar.arrive_and_wait();
  const int neighbour = slot[(threadIdx.x + 1) % 128];
  bar.arrive_and_wait();
  slot[threadIdx.x] = neighbour;
  bar.arrive_and_wait();
  out[threadIdx.x] = slot[threadIdx.x];
}

int main() {
  int* out = zeroed<int>(128);
  rotate<<<1, 128>>>(out);
  return finish("barrier_arrive_and_wait_phases", fetch(out + 127));
}
// EXPECT: no-race
