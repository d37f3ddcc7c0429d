// A tiled matrix product (the shape of gpubench's gemm_tiled): each block loads two tiles into shared
// memory, waits, multiplies, waits before the next tiles overwrite them. Only __syncthreads
// orders its shared memory, so device shared checking (device_shared_check) checks it on the GPU: race-free either way.
#include "suite.cuh"

constexpr int kTile = 16;
constexpr int kN = 64;

__global__ void tiled_gemm(const float* a, const float* b, float* c) {
  __shared__ float tile_a[kTile][kTile];
  __shared__ float tile_b[kTile][kTile];
  const int row = blockIdx.y * kTile + threadIdx.y, column = blockIdx.x * kTile + threadIdx.x;
  float sum = 0;
  for (int t = 0; t < kN / kTile; ++t) {
    tile_a[threadIdx.y][threadIdx.x] = a[row * kN + t * kTile + threadIdx.x];
    tile_b[threadIdx.y][threadIdx.x] = b[(t * kTile + threadIdx.y) * kN + column];
    __syncthreads();
    for (int k = 0; k < kTile; ++k) sum += tile_a[threadIdx.y][k] * tile_b[k][threadIdx.x];
    __syncthreads();
  }
  c[row * kN + column] = sum;
}

int main() {
  float* a = zeroed<float>(kN * kN);
  float* b = zeroed<float>(kN * kN);
  float* c = zeroed<float>(kN * kN);
  tiled_gemm<<<dim3(kN / kTile, kN / kTile), dim3(kTile, kTile)>>>(a, b, c);
  return finish("device_check_tiled_gemm", static_cast<long long>(fetch(c)));
}
// EXPECT: no-race
