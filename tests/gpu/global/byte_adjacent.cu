// Neighbouring threads of different blocks write neighbouring bytes of the same 4-byte word:
// distinct locations, race-free (a detector with word-sized shadow cells must not flag it).
#include "suite.cuh"

__global__ void write_byte(unsigned char* bytes) {
  if (threadIdx.x == 0) bytes[blockIdx.x] = static_cast<unsigned char>(blockIdx.x + 1);
}

int main() {
  unsigned char* bytes = zeroed<unsigned char>(4);
  write_byte<<<4, 32>>>(bytes);
  return finish("byte_adjacent", fetch(reinterpret_cast<int*>(bytes)));
}
// EXPECT: no-race
