// Lane 0 resets a shared counter plainly, then every lane of the warp adds to it atomically, with no
// barrier between. Independent scheduling lets the atomics of other lanes overtake lane 0's store;
// lockstep orders the store first. (The engine, keeping lane 0's own atomic as the word's last write,
// loses this race in shared memory; the GPU's shared check, whose atomics never replace the plain
// write, finds it.)
#include "suite.cuh"

__global__ void reset_then_add(int* out) {
  __shared__ int counter;
  if (threadIdx.x == 0) counter = 0;  // @A
  atomicAdd(&counter, 1);             // @B
  __syncthreads();
  if (threadIdx.x == 0) *out = counter;
}

int main() {
  int* out = zeroed<int>(1);
  reset_then_add<<<1, 32>>>(out);
  return finish("atomic_vs_store_lanes_shared", fetch(out));
}
// EXPECT: race intra-warp shared atomic-plain A B
// EXPECT-LOCKSTEP: no-race
