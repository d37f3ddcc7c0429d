// An in-place 1-D stencil: thread i writes x[i] while the thread owning x[i + 1] reads x[i]. The
// warp-boundary pair (lane 31 of one warp, lane 0 of the next) straddles blocks of 32 threads.
#include "suite.cuh"

__global__ void relax_in_place(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i % 32 != 0 && i % 32 != 31) return;  // keep only the pairs that cross block boundaries
  if (i > 0 && i < n - 1) {
    float left = x[i - 1];                    // @A
    x[i] = 0.5f * (left + 1.0f);              // @B
  }
}

int main() {
  const int n = 256;
  float* x = zeroed<float>(n);
  relax_in_place<<<n / 32, 32>>>(x, n);
  return finish("jacobi_in_place", static_cast<long long>(fetch(x + 32)));
}
// EXPECT: race inter-block global WAR A B
