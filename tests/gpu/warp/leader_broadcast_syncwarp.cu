// Lane 0 writes a shared value, __syncwarp, all lanes read it: race-free.
#include "suite.cuh"

__global__ void broadcast(const int* in, int* out) {
  __shared__ int value;
  if (threadIdx.x == 0) value = in[0] * 2;
  __syncwarp();
  out[threadIdx.x] = value;
}

int main() {
  int* in = zeroed<int>(1);
  int* out = zeroed<int>(32);
  broadcast<<<1, 32>>>(in, out);
  return finish("leader_broadcast_syncwarp", fetch(out + 31));
}
// EXPECT: no-race
