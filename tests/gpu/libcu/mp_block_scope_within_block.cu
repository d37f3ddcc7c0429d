// Block-scope release/acquire message passing between two warps of the same block: race-free.
#include <cuda/atomic>
#include "suite.cuh"

__global__ void message_passing(int* data, int* flag, int* out) {
  cuda::atomic_ref<int, cuda::thread_scope_block> ready(*flag);
  if (threadIdx.x == 0) {
    data[0] = 42;
    ready.store(1, cuda::memory_order_release);
  } else if (threadIdx.x == 32) {
    while (ready.load(cuda::memory_order_acquire) == 0) {}
    out[0] = data[0];
  }
}

int main() {
  int* data = zeroed<int>(1);
  int* flag = zeroed<int>(1);
  int* out = zeroed<int>(1);
  message_passing<<<1, 64>>>(data, flag, out);
  return finish("mp_block_scope_within_block", fetch(out));
}
// EXPECT: no-race
