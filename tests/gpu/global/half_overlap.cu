// Block 1 reads a __half2 whose upper half block 0 writes: overlapping 2- and 4-byte accesses.
#include <cuda_fp16.h>
#include "suite.cuh"

__global__ void half_vs_pair(__half* h, float* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    h[1] = __float2half(3.0f);                                   // @A
  } else {
    __half2 pair = *reinterpret_cast<__half2*>(h);               // @B
    out[0] = __low2float(pair) + __high2float(pair);
  }
}

int main() {
  __half* h = zeroed<__half>(2);
  float* out = zeroed<float>(1);
  half_vs_pair<<<2, 32>>>(h, out);
  return finish("half_overlap", static_cast<long long>(fetch(out)));
}
// EXPECT: race inter-block global RAW A B
