// Message passing across blocks fenced with __threadfence_block (membar.cta): block-scope fences
// order nothing between blocks: a scoped race on the data.
#include "suite.cuh"

__global__ void message_passing(int* data, volatile int* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    data[0] = 42;                // @A
    __threadfence_block();
    *flag = 1;
  } else {
    while (*flag == 0) {}
    __threadfence_block();
    out[0] = data[0];            // @B
  }
}

int main() { return run_message_passing("mp_threadfence_block", message_passing); }
// EXPECT: race scoped global RAW A B
