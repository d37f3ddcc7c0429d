// A per-thread array indexed dynamically lives in local memory: every thread has its own copy at the
// same local address, which must never be reported.
#include "suite.cuh"

__global__ void local_histogram(const int* in, int* out, int n) {
  int counts[16];
  for (int b = 0; b < 16; ++b) counts[b] = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) counts[in[i] & 15] += 1;
  int sum = 0;
  for (int b = 0; b < 16; ++b) sum += counts[b] * b;
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

int main() {
  const int n = 4096;
  int* in = zeroed<int>(n);
  int* out = zeroed<int>(4 * 128);
  local_histogram<<<4, 128>>>(in, out, n);
  return finish("local_array", fetch(out));
}
// EXPECT: no-race
