// The single-kernel queue publishing with relaxed flags: the slot reads are not ordered after the
// slot writes.
#include <cuda/atomic>
#include "suite.cuh"

constexpr int ITEMS = 64;

__global__ void pipeline(int* slots, int* ready, int* out) {
  if (threadIdx.x != 0) return;
  for (int i = 0; i < ITEMS; ++i) {
    cuda::atomic_ref<int, cuda::thread_scope_device> flag(ready[i]);
    if (blockIdx.x == 0) {
      slots[i] = i * i;                                         // @A
      flag.store(1, cuda::memory_order_relaxed);
    } else {
      while (flag.load(cuda::memory_order_relaxed) == 0) {}
      out[i] = slots[i];                                        // @B
    }
  }
}

int main() {
  int* slots = zeroed<int>(ITEMS);
  int* ready = zeroed<int>(ITEMS);
  int* out = zeroed<int>(ITEMS);
  pipeline<<<2, 32>>>(slots, ready, out);
  return finish("queue_publish_relaxed", fetch(out + ITEMS - 1));
}
// EXPECT: race inter-block global RAW A B
