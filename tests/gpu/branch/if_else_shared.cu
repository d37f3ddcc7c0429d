// Divergent branches of one warp write the same shared word.
#include "suite.cuh"

__global__ void split(const int* in, int* out) {
  __shared__ int s;
  if (in[threadIdx.x] < 16) {
    s = 10;  // @A
  } else {
    s = 20;  // @B
  }
  __syncthreads();
  if (threadIdx.x == 0) out[0] = s;
}

int main() {
  int in[32];
  for (int i = 0; i < 32; ++i) in[i] = i;
  int* d_in = zeroed<int>(32);
  CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
  int* out = zeroed<int>(1);
  split<<<1, 32>>>(d_in, out);
  return finish("if_else_shared", fetch(out));
}
// EXPECT: race intra-warp shared WAW A B
// EXPECT-LOCKSTEP: race branch-ordering shared WAW A B
