// Pre-Volta warp-synchronous reduction: no __syncwarp, no volatile. Lane t reads s[t + offset] that
// lane t + offset wrote in the previous iteration; only lockstep execution would order them.
#include "suite.cuh"

__global__ void warp_sum(const int* in, int* out) {
  __shared__ int s[32];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (int offset = 16; offset > 0; offset /= 2)
    if (t < offset) s[t] += s[t + offset];  // @A
  if (t == 0) out[0] = s[0];
}

int main() {
  int* in = zeroed<int>(32);
  int* out = zeroed<int>(1);
  warp_sum<<<1, 32>>>(in, out);
  return finish("legacy_reduce", fetch(out));
}
// EXPECT: race intra-warp shared RAW A A
// EXPECT-LOCKSTEP: no-race
