// Every lane of one warp stores the same value to one flag: same-value intra-warp writes are not
// reported (BARRACUDA's rule, kept by barracuda).
#include "suite.cuh"

__global__ void raise_flag(const int* in, int* flag) {
  if (in[threadIdx.x] == 0) flag[0] = 1;
}

int main() {
  int* in = zeroed<int>(32);
  int* flag = zeroed<int>(1);
  raise_flag<<<1, 32>>>(in, flag);
  return finish("same_value_writes", fetch(flag));
}
// EXPECT: no-race
