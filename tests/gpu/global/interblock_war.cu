// Block 0 reads a word that block 1 overwrites in the same kernel.
#include "suite.cuh"

__global__ void read_then_overwrite(int* x, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) out[0] = x[0];  // @A
  else x[0] = 7;                       // @B
}

int main() {
  int* x = zeroed<int>(1);
  int* out = zeroed<int>(1);
  read_then_overwrite<<<2, 32>>>(x, out);
  return finish("interblock_war", fetch(out));
}
// EXPECT: race inter-block global WAR A B
