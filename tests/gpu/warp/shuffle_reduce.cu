// Warp reduction with __shfl_down_sync: values travel in registers, only lane 0 stores: race-free.
#include "suite.cuh"

__global__ void warp_sum(const int* in, int* out) {
  int v = in[blockIdx.x * 32 + threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}

int main() {
  int* in = zeroed<int>(4 * 32);
  int* out = zeroed<int>(4);
  warp_sum<<<4, 32>>>(in, out);
  return finish("shuffle_reduce", fetch(out + 3));
}
// EXPECT: no-race
