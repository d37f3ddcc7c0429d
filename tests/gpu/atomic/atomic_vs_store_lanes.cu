// Lane 0 stores plainly, then every lane of the warp adds atomically to the same word. Independent
// scheduling lets the atomics of other lanes overtake lane 0's store; lockstep orders the store first.
#include "suite.cuh"

__global__ void reset_then_add(int* x) {
  if (threadIdx.x == 0) x[0] = 0;   // @A
  atomicAdd(x, 1);                  // @B
}

int main() {
  int* x = zeroed<int>(1);
  reset_then_add<<<1, 32>>>(x);
  return finish("atomic_vs_store_lanes", fetch(x));
}
// EXPECT: race intra-warp global atomic-plain A B
// EXPECT-LOCKSTEP: no-race
