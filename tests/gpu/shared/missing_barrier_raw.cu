// Threads read the shared element written by the same lane of the other warp, with no barrier.
#include "suite.cuh"

__global__ void exchange(const int* in, int* out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = in[t];                 // @A
  out[t] = s[t ^ 32];           // @B
}

int main() {
  int* in = zeroed<int>(64);
  int* out = zeroed<int>(64);
  exchange<<<1, 64>>>(in, out);
  return finish("missing_barrier_raw", fetch(out));
}
// EXPECT: race inter-warp shared RAW A B
