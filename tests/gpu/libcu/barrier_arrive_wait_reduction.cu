// A block reduction ordered by cuda::barrier<thread_scope_block>: every thread writes its partial sum,
// then arrive() + wait(); warp 0 then reads every partial. arrive/wait orders the writes before the
// reads exactly as __syncthreads() would: race-free.
#include <cuda/barrier>

#include "suite.cuh"

__global__ void block_sum(const int* in, int* out) {
  __shared__ int partial[256];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  partial[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x] + 1;
  auto token = bar.arrive();
  bar.wait(std::move(token));
  if (threadIdx.x < 32) {
    int sum = 0;
    for (int i = threadIdx.x; i < 256; i += 32) sum += partial[i];
    atomicAdd(out, sum);
  }
}

int main() {
  int* in = zeroed<int>(2 * 256);
  int* out = zeroed<int>(1);
  block_sum<<<2, 256>>>(in, out);
  return finish("barrier_arrive_wait_reduction", fetch(out));
}
// EXPECT: no-race
