// A switch on lane % 3 whose cases 0 and 1 both store to the same global word.
#include "suite.cuh"

__global__ void dispatch(int* x) {
  switch (threadIdx.x % 3) {
    case 0:
      x[0] = 100;            // @A
      break;
    case 1:
      x[0] = 200;            // @B
      break;
    default:
      x[1 + threadIdx.x] = 1;
  }
}

int main() {
  int* x = zeroed<int>(40);
  dispatch<<<1, 32>>>(x);
  return finish("switch_cases", fetch(x));
}
// EXPECT: race intra-warp global WAW A B
// EXPECT-LOCKSTEP: race branch-ordering global WAW A B
