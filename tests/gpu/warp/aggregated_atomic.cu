// Warp-aggregated append: the leader reserves space with one atomicAdd, broadcasts the base with a
// shuffle, and each lane writes its own slot: race-free.
#include "suite.cuh"

__global__ void append(int* queue, int* count) {
  unsigned active = __activemask();
  int leader = __ffs(active) - 1;
  int lane = threadIdx.x % 32;
  int base = 0;
  if (lane == leader) base = atomicAdd(count, __popc(active));
  base = __shfl_sync(active, base, leader);
  queue[base + __popc(active & ((1u << lane) - 1))] = blockIdx.x * blockDim.x + threadIdx.x;
}

int main() {
  int* queue = zeroed<int>(8 * 128);
  int* count = zeroed<int>(1);
  append<<<8, 128>>>(queue, count);
  return finish("aggregated_atomic", fetch(count));
}
// EXPECT: no-race
