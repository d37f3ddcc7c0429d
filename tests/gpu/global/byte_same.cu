// Two warps of one block write the same byte with no barrier between them.
#include "suite.cuh"

__global__ void tag(char* tags) {
  if (threadIdx.x % 32 == 0) tags[3] = static_cast<char>('a' + threadIdx.x / 32);  // @A
}

int main() {
  char* tags = zeroed<char>(8);
  tag<<<1, 64>>>(tags);
  return finish("byte_same", fetch(tags + 3));
}
// EXPECT: race inter-warp global WAW A A
