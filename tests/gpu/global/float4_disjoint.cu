// Vectorised copy: each thread loads and stores one float4 of its own: race-free.
#include "suite.cuh"

__global__ void copy4(const float4* in, float4* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = in[i];
  out[i] = make_float4(v.w, v.z, v.y, v.x);
}

int main() {
  const int n = 16 * 128;
  float4* in = zeroed<float4>(n);
  float4* out = zeroed<float4>(n);
  copy4<<<16, 128>>>(in, out);
  return finish("float4_disjoint", static_cast<long long>(fetch(out).x));
}
// EXPECT: no-race
