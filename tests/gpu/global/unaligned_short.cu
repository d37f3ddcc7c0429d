// A 2-byte store at byte offset 2 and a 4-byte store at offset 0 overlap in bytes 2..3.
#include "suite.cuh"

__global__ void short_vs_int(char* base) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) *reinterpret_cast<short*>(base + 2) = 0x1234;  // @A
  else *reinterpret_cast<int*>(base) = -1;                            // @B
}

int main() {
  char* base = zeroed<char>(8);
  short_vs_int<<<2, 32>>>(base);
  return finish("unaligned_short", fetch(reinterpret_cast<int*>(base)));
}
// EXPECT: race inter-block global WAW A B
