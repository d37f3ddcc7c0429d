// Warp 0 reads warp 1's slots after one __syncthreads(), warp 1 stores them after another: both are
// the block's first barrier (sm_70+ counts them as one), so the read and the store share an interval
// and race. The reading side alone holds no store: the instrumentation must still log its read
// (write_free_intervals.h: two barriers that may count the same interval share their stores).
// The store waits a little so that the read usually comes first.
#include "suite.cuh"

__global__ void split_barriers(const int* warps_that_read, int* out) {
  __shared__ int s[64];
  const int t = threadIdx.x;
  s[t] = t;
  int seen = 0;
  if (t / 32 < warps_that_read[0]) {
    __syncthreads();
    seen = s[t + 32];  // @A
  } else {
    __syncthreads();
    __nanosleep(5000);
    s[t] = -t;  // @B
  }
  out[t] = seen;
}

int main() {
  int* warps = zeroed<int>(1);
  const int one = 1;
  CHECK(cudaMemcpy(warps, &one, sizeof one, cudaMemcpyHostToDevice));
  int* out = zeroed<int>(64);
  split_barriers<<<1, 64>>>(warps, out);
  return finish("write_free_split_barriers", fetch(out));
}
// EXPECT: race inter-warp shared WAR A B
