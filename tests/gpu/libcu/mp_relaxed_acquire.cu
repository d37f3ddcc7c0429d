// Relaxed store of the flag and an acquire load: the producer side releases nothing.
#include <cuda/atomic>
#include "suite.cuh"

__global__ void message_passing(int* data, int* flag, int* out) {
  if (threadIdx.x != 0) return;
  cuda::atomic_ref<int, cuda::thread_scope_device> ready(*flag);
  if (blockIdx.x == 0) {
    data[0] = 42;                                       // @A
    ready.store(1, cuda::memory_order_relaxed);              // @C
  } else {
    while (ready.load(cuda::memory_order_acquire) == 0) {}   // @D
    out[0] = data[0];                                   // @B
  }
}

int main() { return run_message_passing("mp_relaxed_acquire", message_passing); }
// EXPECT: race inter-block global RAW A B
