// Legacy lock with volatile data: block 0 writes data[0] inside a CAS spin-lock with fences; block 1
// reads data[0] once through a volatile pointer without taking the lock (no spin: it reads and moves
// on). volatile is not atomic, and a single read is not a spin: the read and the write race.
#include "suite.cuh"

__global__ void peek(volatile unsigned* data, unsigned* lock, unsigned* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    while (atomicCAS(lock, 0u, 1u) != 0u) {
    }
    __threadfence();
    data[0] = 1;  // @A
    __threadfence();
    atomicExch(lock, 0u);
  } else {
    out[0] = data[0];  // @B
  }
}

int main() {
  unsigned* data = zeroed<unsigned>(1);
  unsigned* lock = zeroed<unsigned>(1);
  unsigned* out = zeroed<unsigned>(1);
  peek<<<2, 32>>>(data, lock, out);
  return finish("volatile_lock_bypass_read", fetch(lock));
}
// EXPECT: race inter-block global RAW A B
