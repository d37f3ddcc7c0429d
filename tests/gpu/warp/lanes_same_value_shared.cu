// All lanes store the same constant to one shared flag, then read it after __syncwarp: same-value
// intra-warp writes are not reported.
#include "suite.cuh"

__global__ void set_flag(const int* in, int* out) {
  __shared__ int seen;
  if (threadIdx.x == 0) seen = 0;
  __syncwarp();
  if (in[threadIdx.x] == 0) seen = 1;
  __syncwarp();
  if (threadIdx.x == 0) out[0] = seen;
}

int main() {
  int* in = zeroed<int>(32);
  int* out = zeroed<int>(1);
  set_flag<<<1, 32>>>(in, out);
  return finish("lanes_same_value_shared", fetch(out));
}
// EXPECT: no-race
