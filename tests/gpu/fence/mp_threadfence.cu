// Legacy message passing across blocks: data, __threadfence, volatile flag store; volatile spin,
// __threadfence, data read. Fence + strong store releases, strong load + fence acquires: race-free.
#include "suite.cuh"

__global__ void message_passing(int* data, volatile int* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    data[0] = 42;                // @A
    __threadfence();
    *flag = 1;
  } else {
    while (*flag == 0) {}
    __threadfence();
    out[0] = data[0];            // @B
  }
}

int main() { return run_message_passing("mp_threadfence", message_passing); }
// EXPECT: no-race
