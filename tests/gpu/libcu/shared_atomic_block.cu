// A block-scope atomic_ref over a shared-memory word: release/acquire hand-off between warps of one
// block and a block-wide counter: race-free.
#include <cuda/atomic>
#include "suite.cuh"

__global__ void handoff(int* out) {
  __shared__ int payload[32];
  __shared__ int ready;
  __shared__ int count;
  if (threadIdx.x == 0) { ready = 0; count = 0; }
  __syncthreads();
  cuda::atomic_ref<int, cuda::thread_scope_block> r(ready), c(count);
  c.fetch_add(1, cuda::memory_order_relaxed);
  if (threadIdx.x < 32) {
    payload[threadIdx.x] = threadIdx.x * 2;
    __syncwarp();
    if (threadIdx.x == 0) r.store(1, cuda::memory_order_release);
  } else if (threadIdx.x < 64) {
    while (r.load(cuda::memory_order_acquire) == 0) {}
    out[threadIdx.x - 32] = payload[threadIdx.x - 32];
  }
}

int main() {
  int* out = zeroed<int>(32);
  handoff<<<1, 64>>>(out);
  return finish("shared_atomic_block", fetch(out + 31));
}
// EXPECT: no-race
