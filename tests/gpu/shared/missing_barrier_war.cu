// After a correct exchange, threads overwrite their own slot while the other warp may still be
// reading it: the barrier between the read and the overwrite is missing.
#include "suite.cuh"

__global__ void exchange_then_update(int* out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  int other = s[t ^ 32];        // @A
  s[t] = other + 1;             // @B
  out[t] = other;
}

int main() {
  int* out = zeroed<int>(64);
  exchange_then_update<<<1, 64>>>(out);
  return finish("missing_barrier_war", fetch(out));
}
// EXPECT: race inter-warp shared WAR A B
