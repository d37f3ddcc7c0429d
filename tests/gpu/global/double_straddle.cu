// An 8-byte double at offset 8 covers the int at offset 12 that another block reads.
#include "suite.cuh"

__global__ void double_vs_int(char* base, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) *reinterpret_cast<double*>(base + 8) = 1.5;  // @A
  else out[0] = *reinterpret_cast<int*>(base + 12);                 // @B
}

int main() {
  char* base = zeroed<char>(16);
  int* out = zeroed<int>(1);
  double_vs_int<<<2, 32>>>(base, out);
  return finish("double_straddle", fetch(out));
}
// EXPECT: race inter-block global RAW A B
