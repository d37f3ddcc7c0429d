// The shared-memory spin lock without fences: the warps' critical-section stores are unordered.
#include "suite.cuh"

__global__ void locked_store(int* out) {
  __shared__ int lock, owner;
  if (threadIdx.x == 0) { lock = 0; owner = -1; }
  __syncthreads();
  if (threadIdx.x % 32 == 0) {
    while (atomicCAS(&lock, 0, 1) != 0) {}
    owner = threadIdx.x / 32;  // @A
    atomicExch(&lock, 0);
  }
  __syncthreads();
  if (threadIdx.x == 0) out[0] = owner;
}

int main() {
  int* out = zeroed<int>(1);
  locked_store<<<1, 128>>>(out);
  return finish("spinlock_shared_no_fence", fetch(out));
}
// EXPECT: race inter-warp shared WAW A A
