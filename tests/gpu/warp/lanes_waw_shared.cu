// Every lane of a warp stores its own lane id to one shared word.
#include "suite.cuh"

__global__ void last_writer(int* out) {
  __shared__ int winner;
  winner = threadIdx.x;  // @A
  __syncwarp();
  if (threadIdx.x == 0) out[0] = winner;
}

int main() {
  int* out = zeroed<int>(1);
  last_writer<<<1, 32>>>(out);
  return finish("lanes_waw_shared", fetch(out));
}
// EXPECT: race intra-warp shared WAW A A
