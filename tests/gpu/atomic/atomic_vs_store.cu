// Block 0 adds atomically while block 1 stores plainly to the same word: atomic vs plain.
#include "suite.cuh"

__global__ void mixed(int* x, int* old) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) old[0] = atomicAdd(x, 5);  // @A
  else x[0] = 100;                                // @B
}

int main() {
  int* x = zeroed<int>(1);
  int* old = zeroed<int>(1);
  mixed<<<2, 32>>>(x, old);
  return finish("atomic_vs_store", fetch(x));
}
// EXPECT: race inter-block global atomic-plain A B
