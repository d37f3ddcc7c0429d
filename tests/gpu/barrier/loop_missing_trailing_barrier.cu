// Warp 0 stages a tile per iteration, warp 1 consumes it after a barrier, but no barrier ends the
// iteration: warp 0 overwrites the tile while warp 1 may still read the previous one.
#include "suite.cuh"

__global__ void staged_sum(const int* in, int* out) {
  __shared__ int tile[32];
  int t = threadIdx.x, acc = 0;
  for (int it = 0; it < 4; ++it) {
    if (t < 32) tile[t] = in[it * 32 + t];   // @A
    __syncthreads();
    if (t >= 32) acc += tile[t - 32];        // @B
  }
  out[t] = acc;
}

int main() {
  int* in = zeroed<int>(4 * 32);
  int* out = zeroed<int>(64);
  staged_sum<<<1, 64>>>(in, out);
  return finish("loop_missing_trailing_barrier", fetch(out + 40));
}
// EXPECT: race inter-warp shared WAR B A
