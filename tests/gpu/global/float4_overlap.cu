// Block 0 stores a float4 over elements 0..3 while block 1 stores the float element 3 alone.
#include "suite.cuh"

__global__ void vector_vs_scalar(float* x) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) *reinterpret_cast<float4*>(x) = make_float4(1, 2, 3, 4);  // @A
  else x[3] = 9.0f;                                                              // @B
}

int main() {
  float* x = zeroed<float>(4);
  vector_vs_scalar<<<2, 32>>>(x);
  return finish("float4_overlap", static_cast<long long>(fetch(x + 3)));
}
// EXPECT: race inter-block global WAW A B
