// Work-efficient (Blelloch) exclusive scan of 512 elements by 256 threads: up-sweep and down-sweep
// with a barrier between every level: race-free.
#include "suite.cuh"

constexpr int N = 512;

__global__ void scan(const int* in, int* out) {
  __shared__ int s[N];
  int t = threadIdx.x;
  s[2 * t] = in[2 * t];
  s[2 * t + 1] = in[2 * t + 1];
  int offset = 1;
  for (int d = N / 2; d > 0; d /= 2) {
    __syncthreads();
    if (t < d) s[offset * (2 * t + 2) - 1] += s[offset * (2 * t + 1) - 1];
    offset *= 2;
  }
  if (t == 0) s[N - 1] = 0;
  for (int d = 1; d < N; d *= 2) {
    offset /= 2;
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
      int left = s[ai];
      s[ai] = s[bi];
      s[bi] += left;
    }
  }
  __syncthreads();
  out[2 * t] = s[2 * t];
  out[2 * t + 1] = s[2 * t + 1];
}

int main() {
  int* in = zeroed<int>(N);
  int* out = zeroed<int>(N);
  scan<<<1, N / 2>>>(in, out);
  return finish("blelloch_scan", fetch(out + N - 1));
}
// EXPECT: no-race
