// atomicAdd_system and atomicCAS_system across blocks: system scope covers every thread: race-free.
#include "suite.cuh"

__global__ void count(int* total, int* owner) {
  atomicAdd_system(total, 1);
  if (threadIdx.x == 0) atomicCAS_system(owner, 0, blockIdx.x + 1);
}

int main() {
  int* total = zeroed<int>(1);
  int* owner = zeroed<int>(1);
  count<<<4, 64>>>(total, owner);
  return finish("system_scope", fetch(total));
}
// EXPECT: no-race
