// Divergent branches that write different elements: race-free under both warp models.
#include "suite.cuh"

__global__ void split(int* x) {
  int lane = threadIdx.x;
  if (lane % 2 == 0) x[lane] = lane;
  else x[lane] = -lane;
}

int main() {
  int* x = zeroed<int>(32);
  split<<<1, 32>>>(x);
  return finish("if_else_disjoint", fetch(x + 3));
}
// EXPECT: no-race
