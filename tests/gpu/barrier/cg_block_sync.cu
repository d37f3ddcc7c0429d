// cooperative_groups::this_thread_block().sync() (barrier.sync 0) between phases: race-free.
#include <cooperative_groups.h>
#include "suite.cuh"
namespace cg = cooperative_groups;

__global__ void reverse(const int* in, int* out) {
  __shared__ int s[256];
  auto block = cg::this_thread_block();
  int t = block.thread_rank();
  s[t] = in[t];
  block.sync();
  out[t] = s[255 - t];
}

int main() {
  int* in = zeroed<int>(256);
  int* out = zeroed<int>(256);
  reverse<<<1, 256>>>(in, out);
  return finish("cg_block_sync", fetch(out));
}
// EXPECT: no-race
