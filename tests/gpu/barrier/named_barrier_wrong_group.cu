// Warps 0-1 synchronise on named barrier 1 and warps 2-3 on barrier 2, but warp 0 reads data that
// warp 2 (the other group) wrote.
#include "suite.cuh"

__global__ void cross_group(int* out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = t;                                   // @A
  if (t < 64) asm volatile("bar.sync 1, 64;" ::: "memory");
  else asm volatile("bar.sync 2, 64;" ::: "memory");
  if (t < 32) out[t] = s[t + 64];             // @B
}

int main() {
  int* out = zeroed<int>(32);
  cross_group<<<1, 128>>>(out);
  return finish("named_barrier_wrong_group", fetch(out));
}
// EXPECT: race inter-warp shared RAW A B
