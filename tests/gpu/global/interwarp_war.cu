// Warp 1 reads a global element before warp 0 overwrites it, with no barrier between the read and
// the overwrite.
#include "suite.cuh"

__global__ void shift(int* buf, int* out) {
  int t = threadIdx.x;
  if (t >= 32) out[t - 32] = buf[t - 32];  // @A
  if (t < 32) buf[t] = -t;                 // @B
}

int main() {
  int* buf = zeroed<int>(32);
  int* out = zeroed<int>(32);
  shift<<<1, 64>>>(buf, out);
  return finish("interwarp_war", fetch(out));
}
// EXPECT: race inter-warp global WAR A B
