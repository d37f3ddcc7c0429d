// Classic tree reduction in shared memory with a barrier after every step: race-free.
#include "suite.cuh"

__global__ void block_sum(const int* in, int* out) {
  __shared__ int s[256];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

int main() {
  int* in = zeroed<int>(8 * 256);
  int* out = zeroed<int>(8);
  block_sum<<<8, 256>>>(in, out);
  return finish("reduction_tree", fetch(out + 7));
}
// EXPECT: no-race
