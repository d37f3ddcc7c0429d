// pathfinder (Rodinia-style): cheapest top-to-bottom path through a grid of weights, where each step
// moves down to one of the three cells below. Each launch advances up to kPyramid rows in shared memory:
// a block loads a row slice, then every row shrinks its valid region by one cell per side (the
// "pyramid"), with barriers between reading the previous row and overwriting it.
// Check: full CPU dynamic-programming reference, exact.
// Timed: `repetitions` full sweeps (each starting from the first row of weights).
#include <algorithm>
#include <vector>

#include "compare.h"
#include "cuda_check.h"
#include "device_buffer.h"
#include "gpu_timer.h"
#include "random.h"
#include "workload.h"

namespace {

constexpr int kCols = 1 << 18;
constexpr int kRows = 200;
constexpr int kBlock = 256;
constexpr int kPyramid = 20;  // rows per launch
constexpr int kRepetitionsAtFullScale = 700;

__host__ __device__ int step_cost(int left, int up, int right, int weight) {
  return min(left, min(up, right)) + weight;
}

// Advances `rows` rows starting at weights row `first_row`: src holds the costs of the row above it.
__global__ void pathfinder_rows(const int* weights, const int* src, int* dst, int first_row, int rows) {
  __shared__ int previous[kBlock];
  const int output_cols = kBlock - 2 * rows;
  const int tx = threadIdx.x;
  const int col = static_cast<int>(blockIdx.x) * output_cols - rows + tx;
  const bool in_grid = col >= 0 && col < kCols;
  if (in_grid) previous[tx] = src[col];
  __syncthreads();
  for (int i = 0; i < rows; ++i) {
    // Only cells whose three parents were valid in the previous row are computed.
    const bool computes = in_grid && tx >= i + 1 && tx <= kBlock - 2 - i;
    int cost = 0;
    if (computes) {
      const int left = col == 0 ? previous[tx] : previous[tx - 1];
      const int right = col == kCols - 1 ? previous[tx] : previous[tx + 1];
      cost = step_cost(left, previous[tx], right, weights[(first_row + i) * kCols + col]);
    }
    __syncthreads();
    if (computes) previous[tx] = cost;
    __syncthreads();
  }
  if (in_grid && tx >= rows && tx < kBlock - rows) dst[col] = previous[tx];
}

std::vector<int> sweep_on_cpu(const std::vector<int>& weights) {
  std::vector<int> costs(weights.begin(), weights.begin() + kCols), next(kCols);
  for (int row = 1; row < kRows; ++row) {
    for (int c = 0; c < kCols; ++c) {
      next[c] = step_cost(costs[std::max(c - 1, 0)], costs[c], costs[std::min(c + 1, kCols - 1)],
                          weights[row * kCols + c]);
    }
    costs.swap(next);
  }
  return costs;
}

}  // namespace

namespace bench {

const char* const workload_name = "pathfinder";

Outcome run_workload(const Options& options) {
  Random random(5);
  std::vector<int> weights(static_cast<std::size_t>(kRows) * kCols);
  for (auto& w : weights) w = random.below(10);

  DeviceBuffer<int> dev_weights(weights), costs_a(kCols), costs_b(kCols);
  int* result = nullptr;
  const float ms = time_repetitions(kRepetitionsAtFullScale, options, [&] {
    const int* src = dev_weights.get();  // row 0 is the starting cost
    int* dst = costs_a.get();
    for (int row = 1; row < kRows; row += kPyramid) {
      const int rows = std::min(kPyramid, kRows - row);
      const int output_cols = kBlock - 2 * rows;
      pathfinder_rows<<<(kCols + output_cols - 1) / output_cols, kBlock>>>(dev_weights.get(), src, dst, row,
                                                                           rows);
      result = dst;
      src = dst;
      dst = dst == costs_a.get() ? costs_b.get() : costs_a.get();
    }
  });
  check_kernel("pathfinder_rows");

  std::vector<int> got(kCols);
  check(cudaMemcpy(got.data(), result, kCols * sizeof(int), cudaMemcpyDeviceToHost), "download");
  return {ms, compare_exact<int>("cost", got, sweep_on_cpu(weights))};
}

}  // namespace bench
