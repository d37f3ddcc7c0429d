// Blocks exchange data through a grid-wide sync (cooperative groups): every thread writes a[i], the
// grid synchronises, and every thread reads another block's element. Race-free; both of the grid
// sync's block barriers order accesses of different blocks, so neither is a "redundant barrier".
#include <cooperative_groups.h>

#include <cstdio>

namespace cg = cooperative_groups;

__global__ void exchange(int* a, int* b, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = i;
  cg::this_grid().sync();
  b[i] = a[(i + 777) % n];
}

int main() {
  constexpr int kBlocks = 8, kThreads = 128, kN = kBlocks * kThreads;
  int *a = nullptr, *b = nullptr;
  cudaMalloc(&a, kN * sizeof(int));
  cudaMalloc(&b, kN * sizeof(int));
  int n = kN;
  void* arguments[] = {&a, &b, &n};
  cudaLaunchCooperativeKernel(reinterpret_cast<void*>(exchange), kBlocks, kThreads, arguments);
  int host[kN];
  const cudaError_t status = cudaMemcpy(host, b, sizeof host, cudaMemcpyDeviceToHost);
  std::printf("%s: b[0] = %d, b[%d] = %d\n", cudaGetErrorString(status), host[0], kN - 1, host[kN - 1]);
  return status == cudaSuccess ? 0 : 1;
}
