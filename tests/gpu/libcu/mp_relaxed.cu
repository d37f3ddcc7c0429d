// Message passing with a relaxed flag: the flag accesses are strong (no race between them) but
// they do not order the plain data accesses.
#include <cuda/atomic>
#include "suite.cuh"

__global__ void message_passing(int* data, int* flag, int* out) {
  if (threadIdx.x != 0) return;
  cuda::atomic_ref<int, cuda::thread_scope_device> ready(*flag);
  if (blockIdx.x == 0) {
    data[0] = 42;                                       // @A
    ready.store(1, cuda::memory_order_relaxed);              // @C
  } else {
    while (ready.load(cuda::memory_order_relaxed) == 0) {}   // @D
    out[0] = data[0];                                   // @B
  }
}

int main() { return run_message_passing("mp_relaxed", message_passing); }
// EXPECT: race inter-block global RAW A B
