// Matrix transpose through a padded 32x32 shared tile with a barrier between the phases: race-free.
#include "suite.cuh"

constexpr int N = 128;

__global__ void transpose(const float* in, float* out) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * N + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) out[(y + j) * N + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main() {
  float* in = zeroed<float>(N * N);
  float* out = zeroed<float>(N * N);
  transpose<<<dim3(N / 32, N / 32), dim3(32, 8)>>>(in, out);
  return finish("transpose_tile", static_cast<long long>(fetch(out + 5)));
}
// EXPECT: no-race
