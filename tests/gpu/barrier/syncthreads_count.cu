// __syncthreads_count is a full barrier that also counts a predicate: the exchange after it is
// ordered, race-free.
#include "suite.cuh"

__global__ void count_positive(const int* in, int* out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = in[t];
  int positives = __syncthreads_count(s[t] > 0);
  out[t] = s[63 - t] + positives;
}

int main() {
  int* in = zeroed<int>(64);
  int* out = zeroed<int>(64);
  count_positive<<<1, 64>>>(in, out);
  return finish("syncthreads_count", fetch(out));
}
// EXPECT: no-race
