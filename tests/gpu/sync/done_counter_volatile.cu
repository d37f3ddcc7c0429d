// A "done counter": every worker block sets its own slot with a volatile store when it is done (no
// fence), and the last block counts the slots set, polling them with volatile loads until all are.
// The count it spins on is all it takes from them: the volatile stores and the polling reads are
// morally strong (relaxed.sys in the PTX model), race-free.
#include "suite.cuh"

constexpr int kBlocks = 8;

__global__ void work(volatile unsigned* done, unsigned* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x + 1 < kBlocks) {
    done[blockIdx.x] = blockIdx.x + 1;
    return;
  }
  unsigned seen = 0;
  while (seen < kBlocks - 1) {
    seen = 0;
    for (int b = 0; b < kBlocks - 1; ++b) seen += done[b] != 0;
  }
  out[0] = seen;
}

int main() {
  unsigned* done = zeroed<unsigned>(kBlocks);
  unsigned* out = zeroed<unsigned>(1);
  work<<<kBlocks, 32>>>(done, out);
  return finish("done_counter_volatile", fetch(out));
}
// EXPECT: no-race
