// Both warps use named barrier 1 but with a thread count of 32: each warp completes the barrier on
// its own, so it does not order warp 0's write before warp 1's read.
#include "suite.cuh"

__global__ void short_count(int* out) {
  __shared__ int s[32];
  int t = threadIdx.x;
  if (t < 32) s[t] = t + 1;                   // @A
  asm volatile("bar.sync 1, 32;" ::: "memory");
  if (t >= 32) out[t - 32] = s[t - 32];       // @B
}

int main() {
  int* out = zeroed<int>(32);
  short_count<<<1, 64>>>(out);
  return finish("named_barrier_count_short", fetch(out));
}
// EXPECT: race inter-warp shared RAW A B
