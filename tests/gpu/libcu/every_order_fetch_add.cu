// fetch_add with every memory order on one device-scope counter from many blocks: race-free.
#include <cuda/atomic>
#include "suite.cuh"

__global__ void count(int* counter) {
  cuda::atomic_ref<int, cuda::thread_scope_device> c(*counter);
  switch (threadIdx.x % 5) {
    case 0: c.fetch_add(1, cuda::memory_order_relaxed); break;
    case 1: c.fetch_add(1, cuda::memory_order_acquire); break;
    case 2: c.fetch_add(1, cuda::memory_order_release); break;
    case 3: c.fetch_add(1, cuda::memory_order_acq_rel); break;
    default: c.fetch_add(1, cuda::memory_order_seq_cst); break;
  }
}

int main() {
  int* counter = zeroed<int>(1);
  count<<<8, 160>>>(counter);
  return finish("every_order_fetch_add", fetch(counter));
}
// EXPECT: no-race
