// atomicExch on a word of volatile data in warp 0 and a volatile store to it in warp 1 of the same
// block: an atomic against a plain (volatile is not atomic) access races.
#include "suite.cuh"

__global__ void exchange_and_store(volatile unsigned* data) {
  if (threadIdx.x == 0) atomicExch(const_cast<unsigned*>(data), 1u);  // @A
  if (threadIdx.x == 32) data[0] = 2;                                 // @B
}

int main() {
  unsigned* data = zeroed<unsigned>(1);
  exchange_and_store<<<1, 64>>>(data);
  return finish("volatile_vs_atomic_exch", 0);
}
// EXPECT: race inter-warp global atomic-plain A B
