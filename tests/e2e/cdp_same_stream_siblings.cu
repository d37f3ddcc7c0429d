// Dynamic parallelism (CDP2): thread 0 of the parent launches child A, which writes a buffer, then child
// B, which reads all of it (across A's blocks) into another, both into the block's NULL stream (0).
// Grids launched into one device stream run one after the other: B sees A's writes. Race-free.
#include <cstdio>

#include "cuda_check.h"

__global__ void produce(int* buffer) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  buffer[i] = i * i % 1000;
}

__global__ void consume(const int* buffer, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = buffer[n - 1 - i] + 1;
}

__global__ void launch_in_order(int* buffer, int* out, int n) {
  if (threadIdx.x == 0) {
    produce<<<2, n / 2, 0, 0>>>(buffer);
    consume<<<2, n / 2, 0, 0>>>(buffer, out, n);
  }
}

int main() {
  constexpr int n = 256;
  int *buffer = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&buffer, n * sizeof(int)));
  CHECK(cudaMalloc(&out, n * sizeof(int)));
  launch_in_order<<<1, 32>>>(buffer, out, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  int host[n];
  CHECK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
  long sum = 0;
  for (int i = 0; i < n; ++i) sum += static_cast<long>(host[i]) * (i % 7 + 1);
  std::printf("cdp_same_stream_siblings: first=%d last=%d checksum=%ld\n", host[0], host[n - 1], sum);
  CHECK(cudaFree(buffer));
  CHECK(cudaFree(out));
  return 0;
}
