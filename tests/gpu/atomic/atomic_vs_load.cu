// Block 0 increments a counter atomically while block 1 reads it with a plain load.
#include "suite.cuh"

__global__ void peek(unsigned* counter, unsigned* seen) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) atomicAdd(counter, 1u);   // @A
  else seen[0] = counter[0];                     // @B
}

int main() {
  unsigned* counter = zeroed<unsigned>(1);
  unsigned* seen = zeroed<unsigned>(1);
  peek<<<2, 32>>>(counter, seen);
  return finish("atomic_vs_load", fetch(counter));
}
// EXPECT: race inter-block global atomic-plain A B
