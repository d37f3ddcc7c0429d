// Legacy message passing across blocks with a volatile flag but no fences: the volatile flag
// accesses are strong, the plain data accesses are unordered.
#include "suite.cuh"

__global__ void message_passing(int* data, volatile int* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    data[0] = 42;                // @A
    *flag = 1;
  } else {
    while (*flag == 0) {}
    out[0] = data[0];            // @B
  }
}

int main() { return run_message_passing("mp_no_fence", message_passing); }
// EXPECT: race inter-block global RAW A B
