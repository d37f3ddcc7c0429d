// Many threads of many blocks store to and load from one word with relaxed device-scope
// atomic_ref operations: strong accesses, not a data race.
#include <cuda/atomic>
#include "suite.cuh"

__global__ void relaxed(int* word, int* out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> w(*word);
  w.store(threadIdx.x, cuda::memory_order_relaxed);
  out[blockIdx.x * blockDim.x + threadIdx.x] = w.load(cuda::memory_order_relaxed);
}

int main() {
  int* word = zeroed<int>(1);
  int* out = zeroed<int>(4 * 64);
  relaxed<<<4, 64>>>(word, out);
  return finish("relaxed_same_word", fetch(out) >= 0);
}
// EXPECT: no-race
