// Unfenced acquire with a counter: each of three producer blocks writes its slot, fences and bumps
// the counter; the consumer spins on atomicAdd(&count, 0) until all three arrived and reads the slots
// with no fence after the spin. A warning ("unfenced acquire"), not a data race.
#include "suite.cuh"

__global__ void gather(int* slots, unsigned* count, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x != 0) {
    slots[blockIdx.x] = 10 * blockIdx.x;
    __threadfence();
    atomicAdd(count, 1u);
  } else {
    while (atomicAdd(count, 0u) != gridDim.x - 1) {}
    int sum = 0;
    for (int b = 1; b < gridDim.x; ++b) sum += slots[b];
    out[0] = sum;
  }
}

int main() {
  int* slots = zeroed<int>(4);
  unsigned* count = zeroed<unsigned>(1);
  int* out = zeroed<int>(1);
  gather<<<4, 32>>>(slots, count, out);
  return finish("unfenced_acquire_add", fetch(out));
}
// EXPECT: no-race
