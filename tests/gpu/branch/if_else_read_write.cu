// The then-branch writes a shared word that the else-branch of the same warp reads.
#include "suite.cuh"

__global__ void split(int* out) {
  __shared__ int s;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  if (threadIdx.x < 8) {
    s = 5;                       // @A
  } else {
    out[threadIdx.x] = s;        // @B
  }
}

int main() {
  int* out = zeroed<int>(32);
  split<<<1, 32>>>(out);
  return finish("if_else_read_write", fetch(out + 9));
}
// EXPECT: race intra-warp shared RAW A B
// EXPECT-LOCKSTEP: race branch-ordering shared RAW A B
