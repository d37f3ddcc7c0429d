// Every thread of 32 warps per block sets the block's shared flags to 1, round after round, with no
// barrier between the rounds; a barrier later thread 0 reads them. Same-value write-writes (warnings)
// from many warps at once: each warp's write can find another's stamp before that write's value is
// there, which must not make them a race of two different values.
#include "suite.cuh"

__global__ void set_flags(const int* keys, int rounds, int* out) {
  __shared__ int found[4];
  if (threadIdx.x < 4) found[threadIdx.x] = 0;
  __syncthreads();
  for (int round = 0; round < rounds; ++round) {
    if (keys[(blockIdx.x * blockDim.x + threadIdx.x + round) % 4096] == 0) found[round % 4] = 1;
  }
  __syncthreads();
  if (threadIdx.x < 4) out[blockIdx.x * 4 + threadIdx.x] = found[threadIdx.x];
}

int main() {
  int* keys = zeroed<int>(4096);
  int* out = zeroed<int>(64 * 4);
  set_flags<<<64, 1024>>>(keys, 16, out);
  return finish("same_value_flags_many_warps", fetch(out));
}
// EXPECT: no-race
