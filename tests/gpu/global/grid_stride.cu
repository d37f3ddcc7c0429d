// A grid-stride loop covering more elements than threads: each element has one owner, race-free.
#include "suite.cuh"

__global__ void scale(float* x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    x[i] = 2.0f * x[i] + 1.0f;
}

int main() {
  const int n = 100003;
  float* x = zeroed<float>(n);
  scale<<<20, 128>>>(x, n);
  return finish("grid_stride", static_cast<long long>(fetch(x + n - 1)));
}
// EXPECT: no-race
