// The "changed" flag of graph code from many blocks at once: 512 blocks of 256 threads set one global
// flag to 1, round after round. Same-value write-writes (warnings), never a race of two values, however
// a block's write meets another's whose value is not yet beside its stamp.
#include "suite.cuh"

__global__ void relax(const int* dist, int rounds, int* changed) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  for (int round = 0; round < rounds; ++round) {
    if (dist[(v + round) % 4096] == 0) *changed = 1;
  }
}

int main() {
  int* dist = zeroed<int>(4096);
  int* changed = zeroed<int>(1);
  relax<<<512, 256>>>(dist, 8, changed);
  return finish("same_value_flag_many_blocks", fetch(changed));
}
// EXPECT: no-race
