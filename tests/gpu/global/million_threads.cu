// 4M threads (16384 blocks of 256) each update their own element: race-free at scale.
#include "suite.cuh"

__global__ void saxpy(float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = a * x[i] + y[i];
}

int main() {
  const int blocks = 16384, threads = 256;
  float* x = zeroed<float>(blocks * threads);
  float* y = zeroed<float>(blocks * threads);
  saxpy<<<blocks, threads>>>(2.0f, x, y);
  return finish("million_threads", static_cast<long long>(fetch(y + 12345)));
}
// EXPECT: no-race
