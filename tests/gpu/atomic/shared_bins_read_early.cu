// Warp 0 adds into eight shared bins many times over while warp 1 reads the bins plainly, with no
// barrier between: the reads race with the adds.
#include "suite.cuh"

__global__ void histogram(unsigned* out) {
  __shared__ unsigned bins[8];
  if (threadIdx.x < 8) bins[threadIdx.x] = 0;
  __syncthreads();
  if (threadIdx.x < 32) {
    for (int i = 0; i < 64; ++i) atomicAdd(&bins[(threadIdx.x + i) % 8], 1u);  // @A
  } else {
    out[threadIdx.x - 32] = bins[threadIdx.x % 8];  // @B
  }
}

int main() {
  unsigned* out = zeroed<unsigned>(32);
  histogram<<<1, 64>>>(out);
  return finish("shared_bins_read_early", fetch(out));
}
// EXPECT: race inter-warp shared atomic-plain A B
