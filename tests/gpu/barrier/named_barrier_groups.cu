// Two independent groups of two warps each synchronise on their own named barrier (1 and 2) and
// exchange data only inside the group: race-free.
#include "suite.cuh"

__global__ void grouped_exchange(int* out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = t;
  if (t < 64) asm volatile("bar.sync 1, 64;" ::: "memory");
  else asm volatile("bar.sync 2, 64;" ::: "memory");
  out[t] = s[t ^ 32];  // the other warp of the same group
}

int main() {
  int* out = zeroed<int>(128);
  grouped_exchange<<<1, 128>>>(out);
  return finish("named_barrier_groups", fetch(out));
}
// EXPECT: no-race
