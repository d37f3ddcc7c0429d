// gemm_tiled (the classic shared-memory SGEMM, no tensor cores): C = A B for square float matrices.
// A 32x8 block computes a 32x32 tile of C, four rows per thread, staging 32x32 tiles of A and B in
// shared memory; one barrier after loading a tile pair, one before overwriting it.
// Check: CPU reference (double) for a sample of entries of C (all of C is O(n^3) on the CPU).
// Timed: `repetitions` products into the same C.
#include <cmath>
#include <sstream>
#include <vector>

#include "cuda_check.h"
#include "device_buffer.h"
#include "gpu_timer.h"
#include "random.h"
#include "workload.h"

namespace {

constexpr int kN = 2048;
constexpr int kTile = 32;
constexpr int kRowsPerThread = 4;
constexpr int kBlockRows = kTile / kRowsPerThread;
constexpr int kSampledEntries = 4096;
constexpr int kRepetitionsAtFullScale = 60;

__global__ void gemm_shared_tiles(const float* a, const float* b, float* c) {
  __shared__ float a_tile[kTile][kTile];
  __shared__ float b_tile[kTile][kTile];
  const int col = blockIdx.x * kTile + threadIdx.x;
  const int first_row = blockIdx.y * kTile;
  float sums[kRowsPerThread] = {};
  for (int k0 = 0; k0 < kN; k0 += kTile) {
    for (int r = 0; r < kRowsPerThread; ++r) {
      const int tile_row = threadIdx.y + r * kBlockRows;
      a_tile[tile_row][threadIdx.x] = a[(first_row + tile_row) * kN + k0 + threadIdx.x];
      b_tile[tile_row][threadIdx.x] = b[(k0 + tile_row) * kN + col];
    }
    __syncthreads();
    for (int k = 0; k < kTile; ++k) {
      const float b_value = b_tile[k][threadIdx.x];
      for (int r = 0; r < kRowsPerThread; ++r) sums[r] += a_tile[threadIdx.y + r * kBlockRows][k] * b_value;
    }
    __syncthreads();
  }
  for (int r = 0; r < kRowsPerThread; ++r) c[(first_row + threadIdx.y + r * kBlockRows) * kN + col] = sums[r];
}

}  // namespace

namespace bench {

const char* const workload_name = "gemm_tiled";

Outcome run_workload(const Options& options) {
  static_assert(kN % kTile == 0);
  Random random(16);
  std::vector<float> a(kN * kN), b(kN * kN);
  for (auto& v : a) v = random.uniform(-1.0f, 1.0f);
  for (auto& v : b) v = random.uniform(-1.0f, 1.0f);

  DeviceBuffer<float> dev_a(a), dev_b(b), dev_c(kN * kN);
  const dim3 grid(kN / kTile, kN / kTile), block(kTile, kBlockRows);
  const float ms = time_repetitions(kRepetitionsAtFullScale, options, [&] {
    gemm_shared_tiles<<<grid, block>>>(dev_a.get(), dev_b.get(), dev_c.get());
  });
  check_kernel("gemm_shared_tiles");

  const auto c = dev_c.download();
  for (int s = 0; s < kSampledEntries; ++s) {
    const int i = random.below(kN), j = random.below(kN);
    double want = 0;
    for (int k = 0; k < kN; ++k) want += double(a[i * kN + k]) * b[k * kN + j];
    if (!(std::fabs(c[i * kN + j] - want) <= 1e-3)) {
      std::ostringstream out;
      out << "C[" << i << "][" << j << "] = " << c[i * kN + j] << ", expected " << want;
      return {ms, out.str()};
    }
  }
  return {ms, {}};
}

}  // namespace bench
