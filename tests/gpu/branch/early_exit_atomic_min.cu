// The early-exit search of early_exit_plain publishing with atomicMin: race-free.
#include "suite.cuh"

__global__ void find_first(const int* data, int n, int key, int* result) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    if (data[i] == key) {
      atomicMin(result, i);
      break;
    }
  }
}

int main() {
  const int n = 4096;
  int* host = new int[n];
  for (int i = 0; i < n; ++i) host[i] = i % 7;
  int* data = zeroed<int>(n);
  CHECK(cudaMemcpy(data, host, n * sizeof(int), cudaMemcpyHostToDevice));
  delete[] host;
  int* result = zeroed<int>(1);
  int big = n;
  CHECK(cudaMemcpy(result, &big, sizeof big, cudaMemcpyHostToDevice));
  find_first<<<4, 64>>>(data, n, 5, result);
  return finish("early_exit_atomic_min", fetch(result));
}
// EXPECT: no-race
