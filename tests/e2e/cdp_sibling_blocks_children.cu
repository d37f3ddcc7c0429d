// Dynamic parallelism (CDP2): 8 parent blocks each fill their own 256-element slice, __syncthreads, and
// thread 0 of each launches its own child grid (2 blocks x 128 threads) over that slice. A child reads
// elements other threads of its parent block wrote (ordered by the barrier and the launch) and writes
// its slice of another array; slices are disjoint, so the 8 children running side by side share
// nothing. Race-free.
#include <cstdio>

#include "cuda_check.h"

constexpr int kSlice = 256;

__global__ void combine(const int* slice, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = slice[i] * 3 + slice[kSlice - 1 - i];
}

__global__ void fill_then_launch_per_block(int* data, int* out) {
  int* slice = data + blockIdx.x * kSlice;
  slice[threadIdx.x] = blockIdx.x * 1000 + threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) combine<<<2, kSlice / 2>>>(slice, out + blockIdx.x * kSlice);
}

int main() {
  constexpr int blocks = 8, n = blocks * kSlice;
  int *data = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&data, n * sizeof(int)));
  CHECK(cudaMalloc(&out, n * sizeof(int)));
  fill_then_launch_per_block<<<blocks, kSlice>>>(data, out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  static int host[n];
  CHECK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
  long sum = 0;
  for (int i = 0; i < n; ++i) sum += static_cast<long>(host[i]) * (i % 11 + 1);
  std::printf("cdp_sibling_blocks_children: first=%d last=%d checksum=%ld\n", host[0], host[n - 1], sum);
  CHECK(cudaFree(data));
  CHECK(cudaFree(out));
  return 0;
}
