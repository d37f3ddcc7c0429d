// A reduction whose first step reads the other warp's element before the barrier that should
// follow the loads into shared memory.
#include "suite.cuh"

__global__ void pair_sum(const int* in, int* out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = in[t];                          // @A
  if (t < 32) s[t] += s[t + 32];         // @B
  __syncthreads();
  if (t == 0) out[0] = s[0] + s[31];
}

int main() {
  int* in = zeroed<int>(64);
  int* out = zeroed<int>(1);
  pair_sum<<<1, 64>>>(in, out);
  return finish("reduction_missing_first_barrier", fetch(out));
}
// EXPECT: race inter-warp shared RAW A B
