// Mixed-precision matrix multiply on tensor cores, as in an inference layer: a conversion kernel turns
// float inputs into half, one GEMM stages 32x16 / 16x32 tiles in shared memory and multiplies them with
// the wmma API (16x16x16, half in, float accumulate), and a second GEMM issues the mma.sync
// m16n8k16 instruction directly through inline PTX with fragments loaded from global memory. Both are
// checked against the host; the small integer inputs make every product and sum exact.
// APP-EXPECT: clean
#include <cuda_fp16.h>
#include <mma.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "app_check.cuh"

using namespace nvcuda;

constexpr int kM = 128;
constexpr int kN = 128;
constexpr int kK = 128;
constexpr int kTile = 32;  // the wmma kernel's block tile: 2x2 warps of 16x16

__global__ void to_half(const float* in, half* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __float2half(in[i]);
}

// C[M][N] = A[M][K] * B[K][N], all row-major; 4 warps per block, one 16x16 tile of C each.
__global__ void wmma_gemm(const half* a, const half* b, float* c) {
  __shared__ __align__(32) half a_tile[kTile][16];
  __shared__ __align__(32) half b_tile[16][kTile];
  const int warp = threadIdx.x / 32;
  const int warp_row = warp / 2, warp_col = warp % 2;
  const int row0 = blockIdx.y * kTile, col0 = blockIdx.x * kTile;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k0 = 0; k0 < kK; k0 += 16) {
    for (int e = threadIdx.x; e < kTile * 16; e += blockDim.x) {
      a_tile[e / 16][e % 16] = a[(row0 + e / 16) * kK + k0 + e % 16];
      b_tile[e / kTile][e % kTile] = b[(k0 + e / kTile) * kN + col0 + e % kTile];
    }
    __syncthreads();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a_frag;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b_frag;
    wmma::load_matrix_sync(a_frag, &a_tile[warp_row * 16][0], 16);
    wmma::load_matrix_sync(b_frag, &b_tile[0][warp_col * 16], kTile);
    wmma::mma_sync(acc, a_frag, b_frag, acc);
    __syncthreads();
  }
  wmma::store_matrix_sync(&c[(row0 + warp_row * 16) * kN + col0 + warp_col * 16], acc, kN, wmma::mem_row_major);
}

__device__ uint32_t pack(half lo, half hi) {
  half2 pair = __halves2half2(lo, hi);
  return *reinterpret_cast<uint32_t*>(&pair);
}

// The same product with one warp per 16x8 tile of C, through mma.sync.aligned.m16n8k16.row.col.
// Fragment layout (PTX ISA): group g = lane / 4, t = lane % 4; A holds rows g and g+8, columns 2t, 2t+1
// and 2t+8, 2t+9 of the 16x16 A block; B holds k rows 2t, 2t+1 and 2t+8, 2t+9 of column g; C holds
// rows g and g+8, columns 2t and 2t+1.
__global__ void mma_gemm(const half* a, const half* b, float* c) {
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  const int tiles_per_row = kN / 8;
  const int row0 = (warp / tiles_per_row) * 16, col0 = (warp % tiles_per_row) * 8;
  const int g = lane / 4, t = lane % 4;
  float d0 = 0.0f, d1 = 0.0f, d2 = 0.0f, d3 = 0.0f;
  for (int k0 = 0; k0 < kK; k0 += 16) {
    auto at = [&](int row, int col) { return a[(row0 + row) * kK + k0 + col]; };
    auto bt = [&](int row, int col) { return b[(k0 + row) * kN + col0 + col]; };
    uint32_t a0 = pack(at(g, 2 * t), at(g, 2 * t + 1));
    uint32_t a1 = pack(at(g + 8, 2 * t), at(g + 8, 2 * t + 1));
    uint32_t a2 = pack(at(g, 2 * t + 8), at(g, 2 * t + 9));
    uint32_t a3 = pack(at(g + 8, 2 * t + 8), at(g + 8, 2 * t + 9));
    uint32_t b0 = pack(bt(2 * t, g), bt(2 * t + 1, g));
    uint32_t b1 = pack(bt(2 * t + 8, g), bt(2 * t + 9, g));
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};\n"
        : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  }
  c[(row0 + g) * kN + col0 + 2 * t] = d0;
  c[(row0 + g) * kN + col0 + 2 * t + 1] = d1;
  c[(row0 + g + 8) * kN + col0 + 2 * t] = d2;
  c[(row0 + g + 8) * kN + col0 + 2 * t + 1] = d3;
}

int main() {
  std::vector<float> a(kM * kK), b(kK * kN);
  for (int i = 0; i < kM * kK; ++i) a[i] = static_cast<float>((i * 7 + i / kK) % 5 - 2);
  for (int i = 0; i < kK * kN; ++i) b[i] = static_cast<float>((i * 3 + i / kN * 5) % 5 - 2);
  float *da, *db, *c_wmma, *c_mma;
  half *ha, *hb;
  CUDA_CHECK(cudaMalloc(&da, a.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&db, b.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&ha, a.size() * sizeof(half)));
  CUDA_CHECK(cudaMalloc(&hb, b.size() * sizeof(half)));
  CUDA_CHECK(cudaMalloc(&c_wmma, kM * kN * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&c_mma, kM * kN * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(da, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(db, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice));

  to_half<<<(kM * kK + 255) / 256, 256>>>(da, ha, kM * kK);
  to_half<<<(kK * kN + 255) / 256, 256>>>(db, hb, kK * kN);
  wmma_gemm<<<dim3(kN / kTile, kM / kTile), 128>>>(ha, hb, c_wmma);
  const int warps = (kM / 16) * (kN / 8);
  mma_gemm<<<warps / 4, 128>>>(ha, hb, c_mma);
  CUDA_CHECK(cudaGetLastError());
  std::vector<float> from_wmma(kM * kN), from_mma(kM * kN);
  CUDA_CHECK(cudaMemcpy(from_wmma.data(), c_wmma, from_wmma.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(from_mma.data(), c_mma, from_mma.size() * sizeof(float), cudaMemcpyDeviceToHost));

  int wmma_mismatches = 0, mma_mismatches = 0;
  double checksum = 0.0;
  for (int i = 0; i < kM; ++i) {
    for (int j = 0; j < kN; ++j) {
      float expected = 0.0f;
      for (int k = 0; k < kK; ++k) expected += a[i * kK + k] * b[k * kN + j];
      wmma_mismatches += from_wmma[i * kN + j] != expected;
      mma_mismatches += from_mma[i * kN + j] != expected;
      checksum += expected * ((i + 2 * j) % 11 - 5);
    }
  }
  std::printf("C = A * B, %dx%dx%d: checksum %.1f, C[0][0] = %.1f, C[%d][%d] = %.1f\n", kM, kN, kK, checksum,
              from_wmma[0], kM - 1, kN - 1, from_wmma[kM * kN - 1]);
  std::printf("wmma: %d elements differ from the host; mma.sync: %d elements differ\n", wmma_mismatches, mma_mismatches);

  for (void* p : {static_cast<void*>(da), static_cast<void*>(db), static_cast<void*>(ha), static_cast<void*>(hb),
                  static_cast<void*>(c_wmma), static_cast<void*>(c_mma)}) {
    CUDA_CHECK(cudaFree(p));
  }
  return wmma_mismatches == 0 && mma_mismatches == 0 ? 0 : 1;
}
