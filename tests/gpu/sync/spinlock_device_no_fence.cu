// The device-wide spin lock without fences: the relaxed atomics give mutual exclusion in time but
// no ordering, so the critical sections' stores race.
#include "suite.cuh"

__global__ void locked_store(int* lock, int* owner) {
  if (threadIdx.x != 0) return;
  while (atomicCAS(lock, 0, 1) != 0) {}
  owner[0] = blockIdx.x;  // @A
  atomicExch(lock, 0);
}

int main() {
  int* lock = zeroed<int>(1);
  int* owner = zeroed<int>(1);
  locked_store<<<4, 32>>>(lock, owner);
  return finish("spinlock_device_no_fence", fetch(owner));
}
// EXPECT: race inter-block global WAW A A
