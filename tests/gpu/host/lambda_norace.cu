// Extended __device__ lambdas capturing device pointers, each thread writing its own element:
// race-free.
#include "suite.cuh"

template <typename F>
__global__ void for_each_index(int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) f(i);
}

int main() {
  const int n = 1000;
  float* x = zeroed<float>(n);
  float* y = zeroed<float>(n);
  for_each_index<<<4, 256>>>(n, [=] __device__(int i) { y[i] = 3.0f * x[i] + y[i]; });
  return finish("lambda_norace", static_cast<long long>(fetch(y + 999)));
}
// BUILD: --extended-lambda
// EXPECT: no-race
