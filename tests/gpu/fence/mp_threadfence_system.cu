// Message passing across blocks fenced with __threadfence_system (membar.sys): race-free.
#include "suite.cuh"

__global__ void message_passing(int* data, volatile int* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    data[0] = 42;                // @A
    __threadfence_system();
    *flag = 1;
  } else {
    while (*flag == 0) {}
    __threadfence_system();
    out[0] = data[0];            // @B
  }
}

int main() { return run_message_passing("mp_threadfence_system", message_passing); }
// EXPECT: no-race
