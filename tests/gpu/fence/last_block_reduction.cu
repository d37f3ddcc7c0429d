// threadFenceReduction: every block stores its partial sum, fences and takes a ticket; the block
// that takes the last ticket fences again and sums the partials: race-free.
#include "suite.cuh"

__global__ void sum(const int* in, int* partial, unsigned* tickets, int* total) {
  __shared__ int s[128];
  __shared__ bool last;
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (int stride = 64; stride > 0; stride /= 2) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) {
    partial[blockIdx.x] = s[0];
    __threadfence();
    last = atomicInc(tickets, gridDim.x) == gridDim.x - 1;
    if (last) __threadfence();
  }
  __syncthreads();
  if (last && t == 0) {
    int acc = 0;
    for (int b = 0; b < gridDim.x; ++b) acc += partial[b];
    *total = acc;
  }
}

int main() {
  const int blocks = 16;
  int* in = zeroed<int>(blocks * 128);
  int* partial = zeroed<int>(blocks);
  unsigned* tickets = zeroed<unsigned>(1);
  int* total = zeroed<int>(1);
  sum<<<blocks, 128>>>(in, partial, tickets, total);
  return finish("last_block_reduction", fetch(total));
}
// EXPECT: no-race
