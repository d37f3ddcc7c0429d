// Legacy lock with volatile data, taken by every block: while (atomicCAS) {}; __threadfence(); the
// volatile read-modify-write; __threadfence(); atomicExch. The lock orders every access: race-free.
#include "suite.cuh"

__global__ void increment(volatile unsigned* data, unsigned* lock) {
  if (threadIdx.x != 0) return;
  while (atomicCAS(lock, 0u, 1u) != 0u) {
  }
  __threadfence();
  data[0] = data[0] + 1;
  __threadfence();
  atomicExch(lock, 0u);
}

int main() {
  unsigned* data = zeroed<unsigned>(1);
  unsigned* lock = zeroed<unsigned>(1);
  increment<<<8, 32>>>(data, lock);
  return finish("volatile_lock_correct", fetch(data));
}
// EXPECT: no-race
