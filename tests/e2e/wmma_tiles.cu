// A tensor-core GEMM (16x16x16 half tiles, float accumulators) that stages A and B in shared memory,
// __syncthreads, then loads its fragments with wmma.load: race-free. barracuda does not log
// wmma.load, so the report must say so, and must not call the barrier redundant (it orders the
// staging stores before the fragment loads it cannot see).
#include <cuda_fp16.h>
#include <mma.h>

#include <cstdio>
#include <vector>

using namespace nvcuda;

constexpr int kTile = 16;
constexpr int kTilesPerSide = 4;  // 64 x 64 matrices, one warp per output tile
constexpr int kSide = kTile * kTilesPerSide;

__global__ void tile_gemm(const half* a, const half* b, float* c) {
  __shared__ half a_tile[kTile * kTile];
  __shared__ half b_tile[kTile * kTile];
  const int row = blockIdx.y * kTile, col = blockIdx.x * kTile;
  wmma::fragment<wmma::accumulator, kTile, kTile, kTile, float> sum;
  wmma::fill_fragment(sum, 0.0f);
  for (int k = 0; k < kSide; k += kTile) {
    for (int i = threadIdx.x; i < kTile * kTile; i += blockDim.x) {
      a_tile[i] = a[(row + i / kTile) * kSide + k + i % kTile];
      b_tile[i] = b[(k + i / kTile) * kSide + col + i % kTile];
    }
    __syncthreads();
    wmma::fragment<wmma::matrix_a, kTile, kTile, kTile, half, wmma::row_major> a_fragment;
    wmma::fragment<wmma::matrix_b, kTile, kTile, kTile, half, wmma::row_major> b_fragment;
    wmma::load_matrix_sync(a_fragment, a_tile, kTile);
    wmma::load_matrix_sync(b_fragment, b_tile, kTile);
    wmma::mma_sync(sum, a_fragment, b_fragment, sum);
    __syncthreads();
  }
  wmma::store_matrix_sync(c + row * kSide + col, sum, kSide, wmma::mem_row_major);
}

int main() {
  std::vector<half> a(kSide * kSide), b(kSide * kSide);
  for (int i = 0; i < kSide * kSide; ++i) {
    a[i] = __float2half(static_cast<float>(i % 7) / 8.0f);
    b[i] = __float2half(static_cast<float>(i % 5) / 4.0f);
  }
  half *device_a, *device_b;
  float* device_c;
  cudaMalloc(&device_a, a.size() * sizeof(half));
  cudaMalloc(&device_b, b.size() * sizeof(half));
  cudaMalloc(&device_c, a.size() * sizeof(float));
  cudaMemcpy(device_a, a.data(), a.size() * sizeof(half), cudaMemcpyHostToDevice);
  cudaMemcpy(device_b, b.data(), b.size() * sizeof(half), cudaMemcpyHostToDevice);
  tile_gemm<<<dim3(kTilesPerSide, kTilesPerSide), 32>>>(device_a, device_b, device_c);
  std::vector<float> c(a.size());
  cudaMemcpy(c.data(), device_c, c.size() * sizeof(float), cudaMemcpyDeviceToHost);
  double checksum = 0;
  for (float value : c) checksum += value;
  std::printf("checksum %.3f\n", checksum);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
