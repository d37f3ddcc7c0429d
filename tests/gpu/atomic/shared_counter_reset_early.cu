// Warps 0 and 1 count into a shared word with atomicAdd; warp 2's first thread resets it with a plain
// store in the same barrier interval: the store races with the adds.
#include "suite.cuh"

__global__ void count(int* out) {
  __shared__ int counter;
  if (threadIdx.x == 0) counter = 0;
  __syncthreads();
  if (threadIdx.x < 64) {
    for (int i = 0; i < 8; ++i) atomicAdd(&counter, 1);  // @A
  } else if (threadIdx.x == 64) {
    counter = 0;  // @B
  }
  __syncthreads();
  if (threadIdx.x == 0) *out = counter;
}

int main() {
  int* out = zeroed<int>(1);
  count<<<1, 96>>>(out);
  return finish("shared_counter_reset_early", fetch(out));
}
// EXPECT: race inter-warp shared atomic-plain A B
