// gaussian (Rodinia-style): Gaussian elimination without pivoting of a diagonally dominant system, two
// launches per pivot: fan1 computes the row multipliers, fan2 updates the trailing submatrix and b.
// Check: back-substitution on the CPU from the GPU's triangular system must recover the known solution
// the right-hand side was built from (an O(n^2) check instead of an O(n^3) CPU elimination).
// Timed: `repetitions` eliminations, each from a fresh copy of the system.
#include <cmath>
#include <vector>

#include "compare.h"
#include "cuda_check.h"
#include "device_buffer.h"
#include "gpu_timer.h"
#include "random.h"
#include "workload.h"

namespace {

constexpr int kN = 2048;
constexpr int kTile = 16;
constexpr int kRepetitionsAtFullScale = 12;

__global__ void fan1(const float* a, float* multipliers, int pivot) {
  const int row = pivot + 1 + blockIdx.x * blockDim.x + threadIdx.x;
  if (row < kN) multipliers[row] = a[row * kN + pivot] / a[pivot * kN + pivot];
}

// Rows below the pivot, columns from the pivot on; the pivot row itself is only read.
__global__ void fan2(float* a, float* b, const float* multipliers, int pivot) {
  const int row = pivot + 1 + blockIdx.y * blockDim.y + threadIdx.y;
  const int col = pivot + blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= kN || col >= kN) return;
  const float m = multipliers[row];
  a[row * kN + col] -= m * a[pivot * kN + col];
  if (col == pivot) b[row] -= m * b[pivot];
}

std::vector<float> back_substitute(const std::vector<float>& a, const std::vector<float>& b) {
  std::vector<float> x(kN);
  for (int i = kN - 1; i >= 0; --i) {
    double sum = b[i];
    for (int j = i + 1; j < kN; ++j) sum -= double(a[i * kN + j]) * x[j];
    x[i] = static_cast<float>(sum / a[i * kN + i]);
  }
  return x;
}

}  // namespace

namespace bench {

const char* const workload_name = "gaussian";

Outcome run_workload(const Options& options) {
  Random random(3);
  std::vector<float> a(kN * kN), x(kN), b(kN);
  for (auto& v : a) v = random.uniform(-1.0f, 1.0f);
  for (int i = 0; i < kN; ++i) a[i * kN + i] = kN;  // strictly diagonally dominant: no pivoting needed
  for (auto& v : x) v = random.uniform(-1.0f, 1.0f);
  for (int i = 0; i < kN; ++i) {
    double sum = 0;
    for (int j = 0; j < kN; ++j) sum += double(a[i * kN + j]) * x[j];
    b[i] = static_cast<float>(sum);
  }

  DeviceBuffer<float> original_a(a), original_b(b), work_a(a.size()), work_b(b.size()), multipliers(kN);
  const float ms = time_repetitions(kRepetitionsAtFullScale, options, [&] {
    check(cudaMemcpyAsync(work_a.get(), original_a.get(), a.size() * 4, cudaMemcpyDeviceToDevice), "reset");
    check(cudaMemcpyAsync(work_b.get(), original_b.get(), b.size() * 4, cudaMemcpyDeviceToDevice), "reset");
    for (int pivot = 0; pivot < kN - 1; ++pivot) {
      const int rows = kN - 1 - pivot;
      fan1<<<(rows + 255) / 256, 256>>>(work_a.get(), multipliers.get(), pivot);
      const dim3 grid((rows + 1 + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
      fan2<<<grid, dim3(kTile, kTile)>>>(work_a.get(), work_b.get(), multipliers.get(), pivot);
    }
  });
  check_kernel("fan1/fan2");

  const auto solved = back_substitute(work_a.download(), work_b.download());
  return {ms, compare_close("x", solved, x, 0.0f, 1e-3f)};
}

}  // namespace bench
