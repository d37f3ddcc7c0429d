// An atomicAdd whose result is unused (compiled to red.global.add) against a plain store from
// another warp of the same block.
#include "suite.cuh"

__global__ void mixed(int* x) {
  if (threadIdx.x == 0) atomicAdd(x, 1);   // @A
  if (threadIdx.x == 32) x[0] = 7;         // @B
}

int main() {
  int* x = zeroed<int>(1);
  mixed<<<1, 64>>>(x);
  return finish("red_vs_store", fetch(x));
}
// EXPECT: race inter-warp global atomic-plain A B
