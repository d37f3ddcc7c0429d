// cudaDeviceReset between two racy launches: the tool's queues go with the context and come back
// for the second launch, whose race (another line) is found as well as the first.
#include <cstdio>

__global__ void first_race(int* x) {
  if (threadIdx.x == 0) x[0] = blockIdx.x;
}

__global__ void second_race(int* x) {
  if (threadIdx.x == 0) x[1] = blockIdx.x + 1;
}

int main() {
  int* x = nullptr;
  cudaMalloc(&x, 2 * sizeof(int));
  first_race<<<2, 32>>>(x);
  const cudaError_t before = cudaDeviceSynchronize();
  const cudaError_t reset = cudaDeviceReset();
  cudaMalloc(&x, 2 * sizeof(int));
  second_race<<<2, 32>>>(x);
  const cudaError_t after = cudaDeviceSynchronize();
  std::printf("before reset: %s; reset: %s; after: %s\n", cudaGetErrorName(before), cudaGetErrorName(reset),
              cudaGetErrorName(after));
  return after == cudaSuccess ? 0 : 1;
}
