// Warp 0 runs one round of (barrier, read, barrier), warp 1 none; then every thread passes a barrier
// and warp 1 stores what warp 0 read, and makes up its two missing barriers. Warp 0's first barrier
// and warp 1's barrier after the loop are both the block's first, so the read and the store race.
// The loop's read interval holds no store: the instrumentation must see that the barrier after the
// loop may count as a round's first (write_free_intervals.h: counts compared modulo 2 to 8).
#include "suite.cuh"

__global__ void data_dependent_rounds(const int* rounds_of_warp0, int* out) {
  __shared__ int s[64];
  const int t = threadIdx.x;
  s[t] = t;
  const int rounds = t < 32 ? rounds_of_warp0[0] : 0;
  int seen = 0;
  for (int i = 0; i < rounds; ++i) {
    __syncthreads();
    seen += s[t + 32];  // @A
    __syncthreads();
  }
  __syncthreads();
  if (t >= 32) {
    __nanosleep(5000);
    s[t] = -t;  // @B
  }
  for (int i = rounds; i < 1; ++i) {
    __syncthreads();
    __syncthreads();
  }
  out[t] = seen;
}

int main() {
  int* rounds = zeroed<int>(1);
  const int one = 1;
  CHECK(cudaMemcpy(rounds, &one, sizeof one, cudaMemcpyHostToDevice));
  int* out = zeroed<int>(64);
  data_dependent_rounds<<<1, 64>>>(rounds, out);
  return finish("write_free_data_dependent_rounds", fetch(out));
}
// EXPECT: race inter-warp shared WAR A B
