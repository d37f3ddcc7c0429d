// Two levels of divergence: the innermost then-branch and the outer else-branch write one word
// (each branch stores one value, so lanes of the same branch do not race with each other).
#include "suite.cuh"

__global__ void nested(int* x) {
  int lane = threadIdx.x;
  if (lane < 16) {
    if (lane % 4 == 0) {
      x[0] = 1;          // @A
    } else {
      x[1 + lane] = 1;
    }
  } else {
    x[0] = 2;            // @B
  }
}

int main() {
  int* x = zeroed<int>(32);
  nested<<<1, 32>>>(x);
  return finish("nested_divergence", fetch(x));
}
// EXPECT: race intra-warp global WAW A B
// EXPECT-LOCKSTEP: race branch-ordering global WAW A B
