// The warp-synchronous reduction through a volatile pointer: volatile accesses are strong, so under
// the PTX memory model they do not form a data race (the result may still be wrong without lockstep).
#include "suite.cuh"

__global__ void warp_sum(const int* in, int* out) {
  __shared__ int s[32];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  volatile int* vs = s;
  for (int offset = 16; offset > 0; offset /= 2)
    if (t < offset) vs[t] = vs[t] + vs[t + offset];
  if (t == 0) out[0] = vs[0];
}

int main() {
  int* in = zeroed<int>(32);
  int* out = zeroed<int>(1);
  warp_sum<<<1, 32>>>(in, out);
  return finish("legacy_reduce_volatile", fetch(out));
}
// EXPECT: no-race
