// Lane 0 writes a value to shared memory and the whole warp reads it straight away, trusting the
// warp to run in lockstep.
#include "suite.cuh"

__global__ void broadcast(const int* in, int* out) {
  __shared__ int value;
  if (threadIdx.x == 0) value = in[0] * 2;  // @A
  out[threadIdx.x] = value;                 // @B
}

int main() {
  int* in = zeroed<int>(1);
  int* out = zeroed<int>(32);
  broadcast<<<1, 32>>>(in, out);
  return finish("leader_broadcast_legacy", fetch(out + 31));
}
// EXPECT: race intra-warp shared RAW A B
// EXPECT-LOCKSTEP: no-race
