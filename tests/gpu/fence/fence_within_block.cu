// __threadfence_block between two warps of one block with a volatile flag: block scope covers both
// warps, so the fence-based hand-off is race-free.
#include "suite.cuh"

__global__ void handoff(int* data, volatile int* flag, int* out) {
  if (threadIdx.x == 0) {
    data[0] = 42;
    __threadfence_block();
    *flag = 1;
  } else if (threadIdx.x == 32) {
    while (*flag == 0) {}
    __threadfence_block();
    out[0] = data[0];
  }
}

int main() {
  int* data = zeroed<int>(1);
  int* flag = zeroed<int>(1);
  int* out = zeroed<int>(1);
  handoff<<<1, 64>>>(data, flag, out);
  return finish("fence_within_block", fetch(out));
}
// EXPECT: no-race
