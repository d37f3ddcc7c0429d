// A 2-byte shared store at byte offset 2 by warp 0 and a 4-byte shared load of the word by warp 1.
#include "suite.cuh"

__global__ void short_vs_int(int* out) {
  __shared__ int word;
  if (threadIdx.x == 0) word = 0;
  __syncthreads();
  if (threadIdx.x == 0) reinterpret_cast<short*>(&word)[1] = 0x1234;  // @A
  if (threadIdx.x == 32) out[0] = word;                               // @B
}

int main() {
  int* out = zeroed<int>(1);
  short_vs_int<<<1, 64>>>(out);
  return finish("shared_unaligned_short", fetch(out));
}
// EXPECT: race inter-warp shared RAW A B
