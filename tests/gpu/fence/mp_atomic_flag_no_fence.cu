// The atomic-flag hand-off of mp_atomic_flag without the fences: relaxed atomics order nothing.
#include "message_passing.cuh"

__global__ void message_passing(int* data, int* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    data[0] = 42;                                // @A
    atomicExch(flag, 1);
  } else {
    while (atomicCAS(flag, 1, 2) != 1) {}
    out[0] = data[0];                            // @B
  }
}

int main() { return run_message_passing("mp_atomic_flag_no_fence", message_passing); }
// EXPECT: race inter-block global RAW A B
