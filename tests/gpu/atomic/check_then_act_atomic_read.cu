// The owner claim with the guarding read done atomically (atomicAdd of 0): race-free.
#include "suite.cuh"

__global__ void claim(int* owner) {
  if (threadIdx.x != 0) return;
  if (atomicAdd(owner, 0) == 0) atomicCAS(owner, 0, blockIdx.x + 1);
}

int main() {
  int* owner = zeroed<int>(1);
  claim<<<8, 32>>>(owner);
  return finish("check_then_act_atomic_read", fetch(owner) != 0);
}
// EXPECT: no-race
