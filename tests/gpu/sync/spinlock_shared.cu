// Block-level spin lock in shared memory: lane 0 of each warp takes it with atomicCAS +
// __threadfence_block and releases with __threadfence_block + atomicExch: race-free.
#include "suite.cuh"

__global__ void locked_increment(int* out) {
  __shared__ int lock, counter;
  if (threadIdx.x == 0) { lock = 0; counter = 0; }
  __syncthreads();
  if (threadIdx.x % 32 == 0) {
    while (atomicCAS(&lock, 0, 1) != 0) {}
    __threadfence_block();
    counter = counter + 1;
    __threadfence_block();
    atomicExch(&lock, 0);
  }
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = counter;
}

int main() {
  int* out = zeroed<int>(2);
  locked_increment<<<2, 256>>>(out);
  return finish("spinlock_shared", fetch(out));
}
// EXPECT: no-race
