// The warp-synchronous reduction through a volatile pointer, without __syncwarp: volatile is not atomic
// (BRIEF section 4), so under independent thread scheduling lane t's read of vs[t + offset] is not
// ordered after lane t + offset's write of the previous iteration: an intra-warp race, as in the
// non-volatile legacy_reduce. Lockstep execution orders them.
#include "suite.cuh"

__global__ void warp_sum(const int* in, int* out) {
  __shared__ int s[32];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  volatile int* vs = s;
  for (int offset = 16; offset > 0; offset /= 2)
    if (t < offset) vs[t] = vs[t] + vs[t + offset];  // @A
  if (t == 0) out[0] = vs[0];
}

int main() {
  int* in = zeroed<int>(32);
  int* out = zeroed<int>(1);
  warp_sum<<<1, 32>>>(in, out);
  return finish("legacy_reduce_volatile", fetch(out));
}
// EXPECT: race intra-warp shared RAW A A
// EXPECT-LOCKSTEP: no-race
