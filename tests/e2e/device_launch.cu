// Dynamic parallelism: every block's thread 0 writes `first[0]` unordered (an inter-block race in the
// parent, launched from the host), and block 0 launches a child grid from the device that doubles
// block 0's elements after its writes (a barrier orders them into the launching thread). The parent's
// race must be found, and only it: the child grid is checked, ordered after what block 0 wrote.
#include <cstdio>

__global__ void double_all(int* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= 2;
}

__global__ void fill_then_launch(int* data, int* first, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = i;
  if (threadIdx.x == 0) first[0] = blockIdx.x;
  __syncthreads();
  if (blockIdx.x == 0 && threadIdx.x == 0) double_all<<<1, n>>>(data, blockDim.x);
}

int main() {
  constexpr int kBlocks = 4, kThreads = 64;
  int *data, *first;
  cudaMalloc(&data, kBlocks * kThreads * sizeof(int));
  cudaMalloc(&first, sizeof(int));
  fill_then_launch<<<kBlocks, kThreads>>>(data, first, kBlocks * kThreads);
  cudaDeviceSynchronize();
  int head[kThreads];
  cudaMemcpy(head, data, sizeof head, cudaMemcpyDeviceToHost);
  long sum = 0;
  for (int value : head) sum += value;
  std::printf("sum of the doubled block %ld: %s\n", sum, cudaGetLastError() == cudaSuccess ? "ok" : "error");
  return 0;
}
