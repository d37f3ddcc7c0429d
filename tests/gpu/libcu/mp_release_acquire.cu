// Message passing across blocks: plain data published by a device-scope release store of a flag and
// read after an acquire load observes it: race-free.
#include <cuda/atomic>
#include "suite.cuh"

__global__ void message_passing(int* data, int* flag, int* out) {
  if (threadIdx.x != 0) return;
  cuda::atomic_ref<int, cuda::thread_scope_device> ready(*flag);
  if (blockIdx.x == 0) {
    data[0] = 42;                                       // @A
    ready.store(1, cuda::memory_order_release);              // @C
  } else {
    while (ready.load(cuda::memory_order_acquire) == 0) {}   // @D
    out[0] = data[0];                                   // @B
  }
}

int main() { return run_message_passing("mp_release_acquire", message_passing); }
// EXPECT: no-race
