// atomicAdd_block (scope .cta) from two blocks on the same global word: the scope does not cover
// both threads, so the atomics are not morally strong: a scoped race.
#include "suite.cuh"

__global__ void count(int* total) {
  if (threadIdx.x == 0) atomicAdd_block(total, 1);  // @A
}

int main() {
  int* total = zeroed<int>(1);
  count<<<2, 32>>>(total);
  return finish("block_scope_across_blocks", fetch(total));
}
// EXPECT: race scoped global WAW A A
