// Inside a divergent branch, the active lanes form a coalesced group, exchange through shared
// memory and synchronise with its sync(): race-free.
#include <cooperative_groups.h>
#include "suite.cuh"
namespace cg = cooperative_groups;

__global__ void odd_lanes(int* out) {
  __shared__ int s[32];
  int lane = threadIdx.x;
  if (lane % 2 == 1) {
    auto active = cg::coalesced_threads();
    s[lane] = lane * 3;
    active.sync();
    out[lane] = s[(lane + 2) % 32];
  }
}

int main() {
  int* out = zeroed<int>(32);
  odd_lanes<<<1, 32>>>(out);
  return finish("coalesced_group", fetch(out + 1));
}
// EXPECT: no-race
