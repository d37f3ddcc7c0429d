// Device-wide spin lock (atomicCAS acquire + __threadfence, __threadfence + atomicExch release)
// taken by thread 0 of every block around a plain read-modify-write: race-free.
#include "suite.cuh"

__global__ void locked_increment(int* lock, int* counter) {
  if (threadIdx.x != 0) return;
  while (atomicCAS(lock, 0, 1) != 0) {}
  __threadfence();
  counter[0] = counter[0] + 1;
  __threadfence();
  atomicExch(lock, 0);
}

int main() {
  int* lock = zeroed<int>(1);
  int* counter = zeroed<int>(1);
  locked_increment<<<16, 32>>>(lock, counter);
  return finish("spinlock_device", fetch(counter));
}
// EXPECT: no-race
