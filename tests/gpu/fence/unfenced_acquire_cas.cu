// Unfenced acquire through a CAS spin: the consumer waits with atomicCAS(flag, 1, 2) and then
// overwrites the data the producer published (__threadfence() + atomicExch), with no fence after the
// spin. A warning ("unfenced acquire"), not a data race.
#include "message_passing.cuh"

__global__ void message_passing(int* data, int* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    data[0] = 42;
    __threadfence();
    atomicExch(flag, 1);
  } else {
    while (atomicCAS(flag, 1, 2) != 1) {}
    out[0] = data[0];
    data[0] = 7;
  }
}

int main() { return run_message_passing("unfenced_acquire_cas", message_passing); }
// EXPECT: no-race
