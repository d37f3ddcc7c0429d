// A device-scope atomic lock whose fences are __threadfence_block: across blocks the fences order
// nothing, so the critical sections race (scoped race).
#include "suite.cuh"

__global__ void locked_store(int* lock, int* owner) {
  if (threadIdx.x != 0) return;
  while (atomicCAS(lock, 0, 1) != 0) {}
  __threadfence_block();
  owner[0] = blockIdx.x;  // @A
  __threadfence_block();
  atomicExch(lock, 0);
}

int main() {
  int* lock = zeroed<int>(1);
  int* owner = zeroed<int>(1);
  locked_store<<<4, 32>>>(lock, owner);
  return finish("spinlock_block_fence_across_blocks", fetch(owner));
}
// EXPECT: race scoped global WAW A A
