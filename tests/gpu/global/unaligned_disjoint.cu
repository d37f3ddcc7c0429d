// Two 2-byte stores into the two halves of one word from different blocks: no byte shared, race-free.
#include "suite.cuh"

__global__ void halves(char* base) {
  if (threadIdx.x == 0) *reinterpret_cast<short*>(base + 2 * blockIdx.x) = static_cast<short>(blockIdx.x + 5);
}

int main() {
  char* base = zeroed<char>(4);
  halves<<<2, 32>>>(base);
  return finish("unaligned_disjoint", fetch(reinterpret_cast<int*>(base)));
}
// EXPECT: no-race
