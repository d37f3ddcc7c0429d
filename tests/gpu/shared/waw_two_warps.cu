// One lane of each warp stores its warp id into the same shared word.
#include "suite.cuh"

__global__ void leader(int* out) {
  __shared__ int owner;
  if (threadIdx.x % 32 == 0) owner = threadIdx.x / 32;  // @A
  __syncthreads();
  if (threadIdx.x == 0) out[0] = owner;
}

int main() {
  int* out = zeroed<int>(1);
  leader<<<1, 128>>>(out);
  return finish("waw_two_warps", fetch(out));
}
// EXPECT: race inter-warp shared WAW A A
