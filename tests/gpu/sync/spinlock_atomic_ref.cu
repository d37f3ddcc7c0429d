// Spin lock written with cuda::atomic_ref: acquire compare_exchange, release store: race-free.
#include <cuda/atomic>
#include "suite.cuh"

__global__ void locked_increment(int* lock_word, int* counter) {
  if (threadIdx.x != 0) return;
  cuda::atomic_ref<int, cuda::thread_scope_device> lock(*lock_word);
  int expected = 0;
  while (!lock.compare_exchange_weak(expected, 1, cuda::memory_order_acquire, cuda::memory_order_relaxed))
    expected = 0;
  counter[0] += 1;
  lock.store(0, cuda::memory_order_release);
}

int main() {
  int* lock = zeroed<int>(1);
  int* counter = zeroed<int>(1);
  locked_increment<<<16, 32>>>(lock, counter);
  return finish("spinlock_atomic_ref", fetch(counter));
}
// EXPECT: no-race
