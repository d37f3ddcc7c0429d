// A block-scope atomic_ref counter incremented by two blocks: scope too narrow, a scoped race.
#include <cuda/atomic>
#include "suite.cuh"

__global__ void count(int* counter) {
  if (threadIdx.x == 0)
    cuda::atomic_ref<int, cuda::thread_scope_block>(*counter).fetch_add(1, cuda::memory_order_relaxed);  // @A
}

int main() {
  int* counter = zeroed<int>(1);
  count<<<2, 32>>>(counter);
  return finish("block_scope_fetch_add_across_blocks", fetch(counter));
}
// EXPECT: race scoped global WAW A A
