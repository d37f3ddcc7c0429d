// __syncthreads_or used as the barrier between producing and consuming shared data: race-free.
#include "suite.cuh"

__global__ void any_negative(const int* in, int* out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = in[t] - 1;
  int any = __syncthreads_or(s[t] < 0);
  out[t] = any ? s[(t + 32) % 128] : 0;
}

int main() {
  int* in = zeroed<int>(128);
  int* out = zeroed<int>(128);
  any_negative<<<1, 128>>>(in, out);
  return finish("syncthreads_or", fetch(out));
}
// EXPECT: no-race
