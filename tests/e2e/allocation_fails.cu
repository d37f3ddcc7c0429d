// An allocation the GPU cannot satisfy (a terabyte): the app sees the same out-of-memory error as
// natively, goes on with a smaller buffer, and its kernel's race is still found.
#include <cstdio>

__global__ void racy_store(int* x) {
  if (threadIdx.x == 0) x[0] = blockIdx.x;
}

int main() {
  void* huge = nullptr;
  const cudaError_t too_big = cudaMalloc(&huge, size_t{1} << 40);
  std::printf("1 TiB: %s\n", cudaGetErrorName(too_big));
  cudaGetLastError();  // an allocation failure is not sticky: clear it so the launch check is its own
  int* x = nullptr;
  const cudaError_t small = cudaMalloc(&x, sizeof(int));
  racy_store<<<2, 32>>>(x);
  const cudaError_t done = cudaDeviceSynchronize();
  std::printf("4 bytes: %s; kernel: %s\n", cudaGetErrorName(small), cudaGetErrorName(done));
  return done == cudaSuccess ? 0 : 1;
}
