// Warps of a block store into one shared word in pairs: warps 0 and 1 store 1, warps 2 and 3 store 2,
// with no barrier between. Warps of one pair are a same-value write-write (a warning); warps of two
// pairs race, though the same store site also made the same-value pair.
#include "suite.cuh"

__global__ void pick(int* out) {
  __shared__ int choice;
  if (threadIdx.x == 0) choice = 0;
  __syncthreads();
  choice = static_cast<int>(threadIdx.x / 64) + 1;  // @A
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = choice;
}

int main() {
  int* out = zeroed<int>(32);
  pick<<<32, 128>>>(out);
  return finish("mixed_value_flag_warps", fetch(out) > 0 ? 0 : 1);
}
// EXPECT: race inter-warp shared WAW A A
