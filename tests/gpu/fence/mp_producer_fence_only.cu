// Only the producer fences: the consumer's data read may be satisfied before its flag read, so the
// data accesses are not ordered.
#include "suite.cuh"

__global__ void message_passing(int* data, volatile int* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    data[0] = 42;                // @A
    __threadfence();
    *flag = 1;
  } else {
    while (*flag == 0) {}
    out[0] = data[0];            // @B
  }
}

int main() { return run_message_passing("mp_producer_fence_only", message_passing); }
// EXPECT: race inter-block global RAW A B
