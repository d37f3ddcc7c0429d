// A kernel writes through a pointer into unmapped memory: cudaDeviceSynchronize returns
// cudaErrorIllegalAddress, as do later calls. The program prints the errors and exits 0; under the tool
// it must see the same errors at the same calls (barracuda's queues live apart from the app's memory).
#include <cstdio>

__global__ void write_through(int* bad, int* good) {
  good[threadIdx.x] = 1;
  if (threadIdx.x == 0) bad[0] = 42;
}

int main() {
  int* good = nullptr;
  if (cudaMalloc(&good, 32 * sizeof(int)) != cudaSuccess) return 1;
  int* bad = reinterpret_cast<int*>(0x10);
  write_through<<<1, 32>>>(bad, good);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  cudaError_t after = cudaMemset(good, 0, sizeof(int));
  std::printf("launch: %s\nsync: %s\nafter: %s\n", cudaGetErrorName(launch), cudaGetErrorName(sync),
              cudaGetErrorName(after));
  std::printf("illegal_address: %d\n", sync != cudaSuccess ? 0 : 1);
  return 0;
}
// EXPECT: no-race
