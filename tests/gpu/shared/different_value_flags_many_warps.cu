// The counterpart of same_value_flags_many_warps: each warp stores its own number into the block's
// shared flag, round after round with no barrier: write-writes of different values, a race (not the
// same-value warning), however the warps' writes interleave.
#include "suite.cuh"

__global__ void set_owner(int rounds, int* out) {
  __shared__ int owner;
  if (threadIdx.x == 0) owner = -1;
  __syncthreads();
  for (int round = 0; round < rounds; ++round) owner = static_cast<int>(threadIdx.x / 32);  // @A
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = owner;
}

int main() {
  int* out = zeroed<int>(64);
  set_owner<<<64, 1024>>>(16, out);
  return finish("different_value_flags_many_warps", fetch(out) >= 0 ? 0 : 1);
}
// EXPECT: race inter-warp shared WAW A A
