// The warp reduction rewritten for Volta+: __syncwarp after every step: race-free.
#include "suite.cuh"

__global__ void warp_sum(const int* in, int* out) {
  __shared__ int s[32];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncwarp();
  for (int offset = 16; offset > 0; offset /= 2) {
    if (t < offset) s[t] += s[t + offset];
    __syncwarp();
  }
  if (t == 0) out[0] = s[0];
}

int main() {
  int* in = zeroed<int>(32);
  int* out = zeroed<int>(1);
  warp_sum<<<1, 32>>>(in, out);
  return finish("reduce_syncwarp", fetch(out));
}
// EXPECT: no-race
