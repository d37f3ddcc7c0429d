// Even and odd lanes of one warp take different branches that both store to x[0]. Independent
// scheduling: an intra-warp race; lockstep: the two paths run in an unspecified order.
#include "suite.cuh"

__global__ void split(int* x) {
  if (threadIdx.x % 2 == 0) {
    x[0] = 1;  // @A
  } else {
    x[0] = 2;  // @B
  }
}

int main() {
  int* x = zeroed<int>(1);
  split<<<1, 32>>>(x);
  return finish("if_else_global", fetch(x));
}
// EXPECT: race intra-warp global WAW A B
// EXPECT-LOCKSTEP: race branch-ordering global WAW A B
