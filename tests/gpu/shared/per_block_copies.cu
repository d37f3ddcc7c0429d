// Every block writes the same shared offset: each block has its own shared memory: race-free.
#include "suite.cuh"

__global__ void broadcast_block_id(int* out) {
  __shared__ int id;
  if (threadIdx.x == 0) id = blockIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = id;
}

int main() {
  int* out = zeroed<int>(16 * 64);
  broadcast_block_id<<<16, 64>>>(out);
  return finish("per_block_copies", fetch(out + 15 * 64));
}
// EXPECT: no-race
