// A relaxed atomic store in block 0 and a plain load in block 1 of the same word: atomic vs plain.
#include <cuda/atomic>
#include "suite.cuh"

__global__ void mixed(int* word, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    cuda::atomic_ref<int, cuda::thread_scope_device>(*word).store(5, cuda::memory_order_relaxed);  // @A
  } else {
    out[0] = word[0];                                                                             // @B
  }
}

int main() {
  int* word = zeroed<int>(1);
  int* out = zeroed<int>(1);
  mixed<<<2, 32>>>(word, out);
  return finish("relaxed_store_vs_plain_load", fetch(word));
}
// EXPECT: race inter-block global atomic-plain A B
