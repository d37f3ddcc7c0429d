// Whether a warp reaches __syncthreads depends on the data: the input makes warp 0 take the barrier
// and warp 1 skip it.
#include "suite.cuh"

__global__ void conditional_barrier(const int* in, int* out) {
  int t = threadIdx.x;
  int v = in[t / 32];
  if (v > 0) {
    __syncthreads();  // @A
  }
  out[t] = v;
}

int main() {
  int* in = zeroed<int>(2);
  int one = 1;
  CHECK(cudaMemcpy(in, &one, sizeof one, cudaMemcpyHostToDevice));
  int* out = zeroed<int>(64);
  conditional_barrier<<<1, 64>>>(in, out);
  return finish("divergence_data_dependent", fetch(out));
}
// EXPECT: barrier-divergence A
