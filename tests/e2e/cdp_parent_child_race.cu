// Dynamic parallelism (CDP2): the parent block fills `data`, synchronises, and its thread 0 launches a
// child grid that reads all of it; then thread 0 writes data[5] again. The child sees what came before
// the launch, but nothing orders the parent's later write with the child's read of data[5]: one race,
// between the child's read (line 12) and the parent's write (line 21). The child's view is printed only
// as "positive", true of both values, so the output is the same whichever the child saw.
#include <cstdio>

#include "cuda_check.h"

__global__ void count_positive(const int* data, int* positive) {
  const int i = threadIdx.x;
  positive[i] = data[i] > 0;
}

__global__ void fill_launch_then_write(int* data, int* positive) {
  const int i = threadIdx.x;
  data[i] = i + 1;
  __syncthreads();
  if (i == 0) {
    count_positive<<<1, blockDim.x>>>(data, positive);
    data[5] = 100;
  }
}

int main() {
  constexpr int n = 32;
  int *data = nullptr, *positive = nullptr;
  CHECK(cudaMalloc(&data, n * sizeof(int)));
  CHECK(cudaMalloc(&positive, n * sizeof(int)));
  fill_launch_then_write<<<1, n>>>(data, positive);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  int host_data[n], host_positive[n];
  CHECK(cudaMemcpy(host_data, data, sizeof host_data, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(host_positive, positive, sizeof host_positive, cudaMemcpyDeviceToHost));
  long sum = 0, count = 0;
  for (int i = 0; i < n; ++i) sum += host_data[i], count += host_positive[i];
  std::printf("cdp_parent_child_race: sum=%ld positive=%ld data[5]=%d\n", sum, count, host_data[5]);
  CHECK(cudaFree(data));
  CHECK(cudaFree(positive));
  return 0;
}
