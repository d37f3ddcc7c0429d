// Dynamic parallelism (CDP2), a tail launch: every block of the parent grid writes its own partial sum,
// and block 0's thread 0 tail-launches (cudaStreamTailLaunch) a one-thread child that adds the partials
// of every block. A tail launch starts after the whole launching grid has ended, so the partials of
// the other blocks (which no barrier orders into thread 0) are ordered before it. Race-free.
#include <cstdio>

#include "cuda_check.h"

__global__ void add_partials(const int* partials, int blocks, int* total) {
  int sum = 0;
  for (int b = 0; b < blocks; ++b) sum += partials[b];
  *total = sum;
}

__global__ void partial_sums(const int* data, int* partials, int* total) {
  __shared__ int block_sum;
  if (threadIdx.x == 0) block_sum = 0;
  __syncthreads();
  atomicAdd(&block_sum, data[blockIdx.x * blockDim.x + threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0) partials[blockIdx.x] = block_sum;
  if (blockIdx.x == 0 && threadIdx.x == 0) add_partials<<<1, 1, 0, cudaStreamTailLaunch>>>(partials, gridDim.x, total);
}

int main() {
  constexpr int kBlocks = 16, kThreads = 64, n = kBlocks * kThreads;
  int host[n];
  for (int i = 0; i < n; ++i) host[i] = i % 10;
  int *data = nullptr, *partials = nullptr, *total = nullptr;
  CHECK(cudaMalloc(&data, sizeof host));
  CHECK(cudaMalloc(&partials, kBlocks * sizeof(int)));
  CHECK(cudaMalloc(&total, sizeof(int)));
  CHECK(cudaMemcpy(data, host, sizeof host, cudaMemcpyHostToDevice));
  partial_sums<<<kBlocks, kThreads>>>(data, partials, total);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  int sum = 0;
  CHECK(cudaMemcpy(&sum, total, sizeof sum, cudaMemcpyDeviceToHost));
  std::printf("total %d (expected %d)\n", sum, (n / 10) * 45 + 0 + 1 + 2 + 3);
  return 0;
}
