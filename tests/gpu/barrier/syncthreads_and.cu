// __syncthreads_and decides whether to take a shared-memory fast path; it orders the exchange too.
#include "suite.cuh"

__global__ void all_even(const int* in, int* out) {
  __shared__ int s[96];
  int t = threadIdx.x;
  s[t] = in[t] * 2;
  if (__syncthreads_and(s[t] % 2 == 0)) out[t] = s[95 - t];
}

int main() {
  int* in = zeroed<int>(96);
  int* out = zeroed<int>(96);
  all_even<<<1, 96>>>(in, out);
  return finish("syncthreads_and", fetch(out));
}
// EXPECT: no-race
