// spmv_csr (SHOC/HeCBench "vector" CSR kernel): y = A x for a generated sparse matrix with a band of
// near-diagonal entries plus scattered ones and varying row lengths; one warp per row, lanes stride over
// the row and combine their sums with warp shuffles.
// Check: full CPU reference (double sums), tolerance for float rounding.
// Timed: `repetitions` products of the same matrix and vector.
#include <cmath>
#include <vector>

#include "compare.h"
#include "cuda_check.h"
#include "device_buffer.h"
#include "gpu_timer.h"
#include "random.h"
#include "workload.h"

namespace {

constexpr std::uint32_t kRows = 1u << 21;
constexpr std::uint32_t kMaxRowLength = 32;
constexpr int kThreads = 256;
constexpr int kRepetitionsAtFullScale = 1000;

struct CsrMatrix {
  std::vector<std::uint32_t> row_offsets;
  std::vector<std::uint32_t> columns;
  std::vector<float> values;
};

CsrMatrix generate_matrix(bench::Random& random) {
  constexpr std::uint32_t kBand = 64;
  CsrMatrix m;
  m.row_offsets.reserve(kRows + 1);
  for (std::uint32_t row = 0; row < kRows; ++row) {
    m.row_offsets.push_back(static_cast<std::uint32_t>(m.columns.size()));
    const std::uint32_t length = 1 + random.below(kMaxRowLength);
    for (std::uint32_t k = 0; k < length; ++k) {
      const bool banded = k % 4 != 3;
      m.columns.push_back(banded ? (row + random.below(kBand)) % kRows : random.below(kRows));
      m.values.push_back(random.uniform(-1.0f, 1.0f));
    }
  }
  m.row_offsets.push_back(static_cast<std::uint32_t>(m.columns.size()));
  return m;
}

__global__ void spmv_warp_per_row(const std::uint32_t* row_offsets, const std::uint32_t* columns,
                                  const float* values, const float* x, float* y) {
  const std::uint32_t row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const unsigned lane = threadIdx.x % 32;
  if (row >= kRows) return;  // whole warps leave together: kRows is a multiple of the warps per block
  float sum = 0;
  for (std::uint32_t j = row_offsets[row] + lane; j < row_offsets[row + 1]; j += 32)
    sum += values[j] * x[columns[j]];
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if (lane == 0) y[row] = sum;
}

std::vector<float> multiply_on_cpu(const CsrMatrix& m, const std::vector<float>& x) {
  std::vector<float> y(kRows);
  for (std::uint32_t row = 0; row < kRows; ++row) {
    double sum = 0;
    for (std::uint32_t j = m.row_offsets[row]; j < m.row_offsets[row + 1]; ++j)
      sum += double(m.values[j]) * x[m.columns[j]];
    y[row] = static_cast<float>(sum);
  }
  return y;
}

}  // namespace

namespace bench {

const char* const workload_name = "spmv_csr";

Outcome run_workload(const Options& options) {
  static_assert(kRows % (kThreads / 32) == 0);
  Random random(13);
  const CsrMatrix m = generate_matrix(random);
  std::vector<float> x(kRows);
  for (auto& v : x) v = random.uniform(-1.0f, 1.0f);

  DeviceBuffer<std::uint32_t> row_offsets(m.row_offsets), columns(m.columns);
  DeviceBuffer<float> values(m.values), dev_x(x), y(kRows);
  const unsigned blocks = kRows / (kThreads / 32);
  const float ms = time_repetitions(kRepetitionsAtFullScale, options, [&] {
    spmv_warp_per_row<<<blocks, kThreads>>>(row_offsets.get(), columns.get(), values.get(), dev_x.get(),
                                            y.get());
  });
  check_kernel("spmv_warp_per_row");

  return {ms, compare_close("y", y.download(), multiply_on_cpu(m, x), 1e-4f, 1e-5f)};
}

}  // namespace bench
