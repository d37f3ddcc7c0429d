// Legacy lock with volatile data: block 0 writes data[0] inside a CAS spin-lock with fences, block 1
// writes data[0] without taking the lock. volatile is not atomic: the two writes race.
#include "suite.cuh"

__global__ void update(volatile unsigned* data, unsigned* lock) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    while (atomicCAS(lock, 0u, 1u) != 0u) {
    }
    __threadfence();
    data[0] = 1;  // @A
    __threadfence();
    atomicExch(lock, 0u);
  } else {
    data[0] = 2;  // @B
  }
}

int main() {
  unsigned* data = zeroed<unsigned>(1);
  unsigned* lock = zeroed<unsigned>(1);
  update<<<2, 32>>>(data, lock);
  return finish("volatile_lock_bypass", fetch(lock));
}
// EXPECT: race inter-block global WAW A B
