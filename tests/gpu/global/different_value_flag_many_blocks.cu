// The counterpart of same_value_flag_many_blocks: 512 blocks store their own numbers into one global
// word, round after round: write-writes of different values between blocks, a race (not the
// same-value warning).
#include "suite.cuh"

__global__ void claim(int rounds, int* owner) {
  for (int round = 0; round < rounds; ++round) *owner = static_cast<int>(blockIdx.x);  // @A
}

int main() {
  int* owner = zeroed<int>(1);
  claim<<<512, 256>>>(8, owner);
  return finish("different_value_flag_many_blocks", fetch(owner) >= 0 ? 0 : 1);
}
// EXPECT: race inter-block global WAW A A
