// Block 0 writes byte 1 of a word that block 1 writes whole: the accesses overlap.
#include "suite.cuh"

__global__ void byte_vs_word(unsigned char* bytes) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) bytes[1] = 0xab;                      // @A
  else *reinterpret_cast<unsigned*>(bytes) = 0x01020304u;    // @B
}

int main() {
  unsigned char* bytes = zeroed<unsigned char>(4);
  byte_vs_word<<<2, 32>>>(bytes);
  return finish("byte_in_word", fetch(reinterpret_cast<int*>(bytes)));
}
// EXPECT: race inter-block global WAW A B
