// Claiming an owner slot: a plain read of the slot guards the atomicCAS that claims it. The plain
// read races with the other block's atomicCAS.
#include "suite.cuh"

__global__ void claim(int* owner) {
  if (threadIdx.x != 0) return;
  if (owner[0] == 0)                          // @A
    atomicCAS(owner, 0, blockIdx.x + 1);      // @B
}

int main() {
  int* owner = zeroed<int>(1);
  claim<<<2, 32>>>(owner);
  return finish("check_then_act", fetch(owner));
}
// EXPECT: race inter-block global atomic-plain A B
