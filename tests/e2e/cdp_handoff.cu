// Dynamic parallelism (CDP2), a hand-off: the parent block's threads fill two arrays, __syncthreads,
// and thread 0 launches a child grid of 4 blocks that rewrites every element of one from both (elements
// other parent threads wrote). The barrier orders the other threads' writes into thread 0, and the
// launch orders thread 0's past into the child; the parent touches nothing after it. Race-free.
#include <cstdio>

#include "cuda_check.h"

__global__ void mix(int* data, const int* mirror, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * 2 + mirror[n - 1 - i] % 7;
}

__global__ void fill_then_hand_off(int* data, int* mirror, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) data[i] = mirror[i] = 3 * i + 1;
  __syncthreads();
  if (threadIdx.x == 0) mix<<<4, n / 4>>>(data, mirror, n);
}

int main() {
  constexpr int n = 512;
  int *data = nullptr, *mirror = nullptr;
  CHECK(cudaMalloc(&data, n * sizeof(int)));
  CHECK(cudaMalloc(&mirror, n * sizeof(int)));
  fill_then_hand_off<<<1, 128>>>(data, mirror, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  int host[n];
  CHECK(cudaMemcpy(host, data, sizeof host, cudaMemcpyDeviceToHost));
  long sum = 0;
  for (int i = 0; i < n; ++i) sum += static_cast<long>(host[i]) * (i % 5 + 1);
  std::printf("cdp_handoff: first=%d last=%d checksum=%ld\n", host[0], host[n - 1], sum);
  CHECK(cudaFree(data));
  CHECK(cudaFree(mirror));
  return 0;
}
