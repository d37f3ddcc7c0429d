// Relaxed device-scope flag with fences of block scope only, across blocks: the fences do not
// order anything between the blocks, so the data accesses race (scoped race).
#include "message_passing.cuh"

__global__ void message_passing(int* data, int* flag, int* out) {
  if (threadIdx.x != 0) return;
  cuda::atomic_ref<int, cuda::thread_scope_device> ready(*flag);
  if (blockIdx.x == 0) {
    data[0] = 42;                                                                      // @A
    cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_block);
    ready.store(1, cuda::memory_order_relaxed);
  } else {
    while (ready.load(cuda::memory_order_relaxed) == 0) {}
    cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_block);
    out[0] = data[0];                                                                  // @B
  }
}

int main() { return run_message_passing("mp_fence_block_scope", message_passing); }
// EXPECT: race scoped global RAW A B
