// Relaxed flag accesses made into release/acquire patterns by cuda::atomic_thread_fence at device
// scope on both sides: race-free.
#include "message_passing.cuh"

__global__ void message_passing(int* data, int* flag, int* out) {
  if (threadIdx.x != 0) return;
  cuda::atomic_ref<int, cuda::thread_scope_device> ready(*flag);
  if (blockIdx.x == 0) {
    data[0] = 42;
    cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_device);
    ready.store(1, cuda::memory_order_relaxed);
  } else {
    while (ready.load(cuda::memory_order_relaxed) == 0) {}
    cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
    out[0] = data[0];
  }
}

int main() { return run_message_passing("mp_relaxed_fences", message_passing); }
// EXPECT: no-race
