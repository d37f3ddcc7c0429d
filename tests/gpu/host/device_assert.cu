// A kernel fails a device-side assert: cudaDeviceSynchronize returns cudaErrorAssert, the program
// prints what it saw and exits 0. Under the tool the app must see the same error at the same call (the
// tool's own synchronisation must not consume or change it), and the report says the launch ended in a
// fault (only what was logged before it was checked).
#undef NDEBUG  // the suite builds with -DNDEBUG in Release: this program needs its assert
#include <cassert>
#include <cstdio>

__global__ void check_positive(const int* x) {
  assert(x[threadIdx.x] > 0);
}

int main() {
  int* x = nullptr;
  if (cudaMalloc(&x, 32 * sizeof(int)) != cudaSuccess) return 1;
  cudaMemset(x, 0, 32 * sizeof(int));
  check_positive<<<1, 32>>>(x);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  std::printf("launch: %s\nsync: %s\n", cudaGetErrorName(launch), cudaGetErrorName(sync));
  std::printf("after: %s\n", cudaGetErrorName(cudaMemset(x, 0, 4)));
  std::printf("device_assert: %d\n", sync == cudaErrorAssert ? 0 : 1);
  return 0;
}
// EXPECT: no-race
