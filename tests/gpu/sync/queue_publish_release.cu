// Single-kernel producer/consumer queue: block 0 fills slots and publishes each with a release store
// of its ready flag; block 1 waits on each flag with acquire loads and reads the slot: race-free.
#include <cuda/atomic>
#include "suite.cuh"

constexpr int ITEMS = 64;

__global__ void pipeline(int* slots, int* ready, int* out) {
  if (threadIdx.x != 0) return;
  for (int i = 0; i < ITEMS; ++i) {
    cuda::atomic_ref<int, cuda::thread_scope_device> flag(ready[i]);
    if (blockIdx.x == 0) {
      slots[i] = i * i;
      flag.store(1, cuda::memory_order_release);
    } else {
      while (flag.load(cuda::memory_order_acquire) == 0) {}
      out[i] = slots[i];
    }
  }
}

int main() {
  int* slots = zeroed<int>(ITEMS);
  int* ready = zeroed<int>(ITEMS);
  int* out = zeroed<int>(ITEMS);
  pipeline<<<2, 32>>>(slots, ready, out);
  return finish("queue_publish_release", fetch(out + ITEMS - 1));
}
// EXPECT: no-race
