// cuda::std::atomic_ref (system scope by default) relaxed loads and stores from several blocks:
// compiled to ld/st.relaxed.sys, strong: race-free.
#include <cuda/std/atomic>
#include "suite.cuh"

__global__ void relaxed(int* word, int* out) {
  cuda::std::atomic_ref<int> w(*word);
  if (threadIdx.x == 0) w.store(blockIdx.x, cuda::std::memory_order_relaxed);
  out[blockIdx.x * blockDim.x + threadIdx.x] = w.load(cuda::std::memory_order_relaxed);
}

int main() {
  int* word = zeroed<int>(1);
  int* out = zeroed<int>(4 * 32);
  relaxed<<<4, 32>>>(word, out);
  return finish("relaxed_system_default", fetch(out) >= 0);
}
// EXPECT: no-race
