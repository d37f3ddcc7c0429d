// Each thread adds to its own shared slot many times and reads it back, then after a barrier every
// thread reads a neighbour's slot: a thread's add and its own read are ordered, the barrier orders the
// rest.
#include "suite.cuh"

__global__ void own_slots(int* out) {
  __shared__ int slot[128];
  slot[threadIdx.x] = 0;
  __syncthreads();
  int seen = 0;
  for (int i = 0; i < 8; ++i) {
    atomicAdd(&slot[threadIdx.x], i);
    seen += slot[threadIdx.x];
  }
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = seen + slot[(threadIdx.x + 1) % 128];
}

int main() {
  int* out = zeroed<int>(2 * 128);
  own_slots<<<2, 128>>>(out);
  return finish("shared_own_slot_add_then_read", fetch(out + 3));
}
// EXPECT: no-race
