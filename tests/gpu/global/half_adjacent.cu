// Each thread converts and writes one __half; neighbours share 4-byte words but not halves: race-free.
#include <cuda_fp16.h>
#include "suite.cuh"

__global__ void to_half(const float* in, __half* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = __float2half(in[i] * 0.5f);
}

int main() {
  const int n = 4 * 64;
  float* in = zeroed<float>(n);
  __half* out = zeroed<__half>(n);
  to_half<<<4, 64>>>(in, out);
  return finish("half_adjacent", static_cast<long long>(__half2float(fetch(out + 3))));
}
// EXPECT: no-race
