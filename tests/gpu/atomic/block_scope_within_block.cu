// atomicAdd_block (scope .cta) used only by threads of one block: its scope covers them: race-free.
#include "suite.cuh"

__global__ void count(int* per_block) {
  atomicAdd_block(&per_block[blockIdx.x], 1);
}

int main() {
  int* per_block = zeroed<int>(8);
  count<<<8, 256>>>(per_block);
  return finish("block_scope_within_block", fetch(per_block + 7));
}
// EXPECT: no-race
