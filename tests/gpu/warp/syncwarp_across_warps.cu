// __syncwarp orders lanes of one warp only: warp 1 reading what warp 0 wrote is still racy.
#include "suite.cuh"

__global__ void handoff(int* out) {
  __shared__ int s[32];
  int t = threadIdx.x;
  if (t < 32) s[t] = t + 100;         // @A
  __syncwarp();
  if (t >= 32) out[t - 32] = s[t - 32];  // @B
}

int main() {
  int* out = zeroed<int>(32);
  handoff<<<1, 64>>>(out);
  return finish("syncwarp_across_warps", fetch(out));
}
// EXPECT: race inter-warp shared RAW A B
