// atomicOr / atomicAnd / atomicXor on shared flag words from many blocks: race-free.
#include "suite.cuh"

__global__ void flags(unsigned* words) {
  unsigned bit = 1u << (threadIdx.x % 32);
  atomicOr(&words[0], bit);
  atomicAnd(&words[1], ~bit);
  atomicXor(&words[2], bit);
}

int main() {
  unsigned* words = zeroed<unsigned>(3);
  flags<<<4, 64>>>(words);
  return finish("bit_flags", fetch(words));
}
// EXPECT: no-race
