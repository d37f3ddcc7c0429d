// Unfenced acquire (issue 15 part 2): the producer publishes with __threadfence() + atomicExch, the
// consumer spins on atomicExch(&flag, 0) and reads the data with no fence after the spin. No acquire
// in the PTX model, but GPUs honour the spin's control dependency and legacy code relies on it: the
// warning class "unfenced acquire" (missing __threadfence() after the spin), not a data race.
#include "message_passing.cuh"

__global__ void message_passing(int* data, int* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    data[0] = 42;
    __threadfence();
    atomicExch(flag, 1);
  } else {
    while (atomicExch(flag, 0) == 0) {}
    out[0] = data[0];
  }
}

int main() { return run_message_passing("unfenced_acquire_exch", message_passing); }
// EXPECT: no-race
