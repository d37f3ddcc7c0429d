// In-place Hillis-Steele scan of one warp with a barrier only after each step: lane t reads
// s[t - offset] while lane t - offset overwrites it in the same step. Lockstep execution would do
// all reads before all writes; independent thread scheduling does not.
#include "suite.cuh"

__global__ void scan(const int* in, int* out) {
  __shared__ int s[32];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (int offset = 1; offset < 32; offset *= 2) {
    int add = t >= offset ? s[t - offset] : 0;   // @A
    s[t] += add;                                 // @B
    __syncthreads();
  }
  out[t] = s[t];
}

int main() {
  int* in = zeroed<int>(32);
  int* out = zeroed<int>(32);
  scan<<<1, 32>>>(in, out);
  return finish("scan_in_place", fetch(out + 31));
}
// EXPECT: race intra-warp shared WAR A B
// EXPECT-LOCKSTEP: no-race
