// compare_exchange_strong/weak loops (acq_rel / relaxed on failure) building a running maximum and a
// claim-once slot: race-free.
#include <cuda/atomic>
#include "suite.cuh"

__global__ void claims(int* maximum, int* first) {
  int mine = (blockIdx.x * 97 + threadIdx.x * 13) % 1000;
  cuda::atomic_ref<int, cuda::thread_scope_device> m(*maximum);
  int seen = m.load(cuda::memory_order_relaxed);
  while (seen < mine && !m.compare_exchange_weak(seen, mine, cuda::memory_order_acq_rel,
                                                 cuda::memory_order_relaxed)) {}
  int expected = 0;
  cuda::atomic_ref<int, cuda::thread_scope_device>(*first).compare_exchange_strong(expected, mine + 1);
}

int main() {
  int* maximum = zeroed<int>(1);
  int* first = zeroed<int>(1);
  claims<<<8, 64>>>(maximum, first);
  return finish("compare_exchange", fetch(maximum));
}
// EXPECT: no-race
