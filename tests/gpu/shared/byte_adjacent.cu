// Two warps write neighbouring bytes of the same shared word, then read them after a barrier:
// distinct bytes, race-free.
#include "suite.cuh"

__global__ void pack(int* out) {
  __shared__ alignas(4) unsigned char bytes[4];
  if (threadIdx.x % 32 == 0) bytes[threadIdx.x / 32] = static_cast<unsigned char>(threadIdx.x + 1);
  __syncthreads();
  if (threadIdx.x == 0) out[0] = *reinterpret_cast<int*>(bytes);
}

int main() {
  int* out = zeroed<int>(1);
  pack<<<1, 128>>>(out);
  return finish("shared_byte_adjacent", fetch(out));
}
// EXPECT: no-race
