// Per-block histogram with shared-memory atomicAdd, merged into global with atomicAdd: race-free.
#include "suite.cuh"

__global__ void histogram(const unsigned char* in, int n, unsigned* bins) {
  __shared__ unsigned local[64];
  for (int b = threadIdx.x; b < 64; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[in[i] % 64], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 64; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}

int main() {
  const int n = 1 << 16;
  unsigned char* in = zeroed<unsigned char>(n);
  unsigned* bins = zeroed<unsigned>(64);
  histogram<<<8, 256>>>(in, n, bins);
  return finish("histogram_atomics", fetch(bins));
}
// EXPECT: no-race
