// One thread of a kernel executes `trap`: the launch fails, cudaDeviceSynchronize returns
// cudaErrorLaunchFailure and every later call returns it too (the context is lost). The program prints
// what it saw and exits 0; under the tool it must see the same errors at the same calls.
#include <cstdio>

__global__ void trap_in_one_thread(int* x) {
  x[threadIdx.x] = threadIdx.x;
  if (threadIdx.x == 7) asm volatile("trap;");
}

int main() {
  int* x = nullptr;
  if (cudaMalloc(&x, 32 * sizeof(int)) != cudaSuccess) return 1;
  trap_in_one_thread<<<1, 32>>>(x);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  int host = 0;
  cudaError_t copy = cudaMemcpy(&host, x, sizeof host, cudaMemcpyDeviceToHost);
  std::printf("launch: %s\nsync: %s\ncopy: %s\n", cudaGetErrorName(launch), cudaGetErrorName(sync),
              cudaGetErrorName(copy));
  std::printf("kernel_trap: %d\n", sync != cudaSuccess ? 0 : 1);
  return 0;
}
// EXPECT: no-race
