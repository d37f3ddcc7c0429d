// Warp 0 stores a float4 into shared elements 0..3 while warp 1 stores element 2 alone.
#include "suite.cuh"

__global__ void vector_vs_scalar(float* out) {
  __shared__ float4 v[1];
  if (threadIdx.x == 0) v[0] = make_float4(1, 2, 3, 4);               // @A
  if (threadIdx.x == 32) reinterpret_cast<float*>(v)[2] = 9.0f;       // @B
  __syncthreads();
  if (threadIdx.x == 0) out[0] = v[0].z;
}

int main() {
  float* out = zeroed<float>(1);
  vector_vs_scalar<<<1, 64>>>(out);
  return finish("shared_float4_overlap", static_cast<long long>(fetch(out)));
}
// EXPECT: race inter-warp shared WAW A B
