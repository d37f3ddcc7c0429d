// Transpose of one 32x32 tile by 32 warps (one row each) without the barrier between the phases:
// each off-diagonal element is written by one warp and read by another.
#include "suite.cuh"

__global__ void transpose(const float* in, float* out) {
  __shared__ float tile[32][33];
  int x = threadIdx.x, y = threadIdx.y;
  tile[y][x] = in[y * 32 + x];    // @A
  out[y * 32 + x] = tile[x][y];   // @B
}

int main() {
  float* in = zeroed<float>(32 * 32);
  float* out = zeroed<float>(32 * 32);
  transpose<<<1, dim3(32, 32)>>>(in, out);
  return finish("transpose_missing_barrier", static_cast<long long>(fetch(out + 1)));
}
// EXPECT: race inter-warp shared RAW A B
