// BARRACUDA-style legacy synchronisation: fence + atomicExch publishes, atomicCAS spin + fence
// acquires (relaxed atomics made release/acquire by the adjacent fences): race-free.
#include "message_passing.cuh"

__global__ void message_passing(int* data, int* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    data[0] = 42;
    __threadfence();
    atomicExch(flag, 1);
  } else {
    while (atomicCAS(flag, 1, 2) != 1) {}
    __threadfence();
    out[0] = data[0];
  }
}

int main() { return run_message_passing("mp_atomic_flag", message_passing); }
// EXPECT: no-race
