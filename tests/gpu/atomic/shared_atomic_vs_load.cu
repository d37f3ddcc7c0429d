// Warp 0 counts into a shared word with atomicAdd while warp 1 reads it plainly, no barrier between.
#include "suite.cuh"

__global__ void progress(int* out) {
  __shared__ int done;
  if (threadIdx.x == 0) done = 0;
  __syncthreads();
  if (threadIdx.x < 32) atomicAdd(&done, 1);      // @A
  else out[threadIdx.x - 32] = done;              // @B
}

int main() {
  int* out = zeroed<int>(32);
  progress<<<1, 64>>>(out);
  return finish("shared_atomic_vs_load", fetch(out));
}
// EXPECT: race inter-warp shared atomic-plain A B
