// Tree reduction over 4 warps that skips the barrier after its last step: warp 2 reads the total
// that warp 0's final step writes.
#include "suite.cuh"

__global__ void block_sum(const int* in, int* out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (int stride = 64; stride > 0; stride /= 2) {
    if (t < stride) s[t] += s[t + stride];  // @A
    if (stride > 1) __syncthreads();
  }
  if (t == 64) out[0] = s[0];               // @B
}

int main() {
  int* in = zeroed<int>(128);
  int* out = zeroed<int>(1);
  block_sum<<<1, 128>>>(in, out);
  return finish("reduction_missing_final_barrier", fetch(out));
}
// EXPECT: race inter-warp shared RAW A B
