// Shared-memory tiled matrix multiply (16x16 tiles) with both barriers per tile: race-free.
#include "suite.cuh"

constexpr int N = 64, T = 16;

__global__ void matmul(const float* a, const float* b, float* c) {
  __shared__ float as[T][T], bs[T][T];
  int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
  float acc = 0;
  for (int k0 = 0; k0 < N; k0 += T) {
    as[threadIdx.y][threadIdx.x] = a[row * N + k0 + threadIdx.x];
    bs[threadIdx.y][threadIdx.x] = b[(k0 + threadIdx.y) * N + col];
    __syncthreads();
    for (int k = 0; k < T; ++k) acc += as[threadIdx.y][k] * bs[k][threadIdx.x];
    __syncthreads();
  }
  c[row * N + col] = acc;
}

int main() {
  float* a = zeroed<float>(N * N);
  float* b = zeroed<float>(N * N);
  float* c = zeroed<float>(N * N);
  matmul<<<dim3(N / T, N / T), dim3(T, T)>>>(a, b, c);
  return finish("tiled_matmul", static_cast<long long>(fetch(c + 7)));
}
// EXPECT: no-race
