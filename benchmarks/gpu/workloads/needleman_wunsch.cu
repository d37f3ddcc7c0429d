// needleman_wunsch (Rodinia nw-style): global alignment score matrix of two sequences, computed as a
// wavefront of 16x16 tiles: one launch per tile anti-diagonal; inside a tile the 16 threads sweep the
// cell anti-diagonals in shared memory with a barrier between sweeps.
// Check: full CPU dynamic-programming reference, exact.
// Timed: `repetitions` full wavefronts (each recomputes every cell from the fixed borders).
#include <algorithm>
#include <vector>

#include "compare.h"
#include "cuda_check.h"
#include "device_buffer.h"
#include "gpu_timer.h"
#include "random.h"
#include "workload.h"

namespace {

constexpr int kLength = 4096;  // of each sequence
constexpr int kSide = kLength + 1;
constexpr int kTile = 16;
constexpr int kTilesPerSide = kLength / kTile;
constexpr int kAlphabet = 24;
constexpr int kGapPenalty = 10;
constexpr int kRepetitionsAtFullScale = 20;

__host__ __device__ int best_score(int diagonal, int up, int left, int similarity) {
  return max(diagonal + similarity, max(up - kGapPenalty, left - kGapPenalty));
}

// similarity[i * kSide + j] scores residue i of the first sequence against residue j of the second.
__global__ void nw_tile_diagonal(int* score, const int* similarity, int tile_diagonal) {
  __shared__ int cells[kTile + 1][kTile + 1];
  __shared__ int sim[kTile][kTile];
  const int first_tile_x = max(0, tile_diagonal - kTilesPerSide + 1);
  const int tile_x = first_tile_x + blockIdx.x;
  const int tile_y = tile_diagonal - tile_x;
  const int row0 = tile_y * kTile;  // the tile covers rows row0+1 .. row0+kTile
  const int col0 = tile_x * kTile;
  const int t = threadIdx.x;

  if (t == 0) cells[0][0] = score[row0 * kSide + col0];
  cells[0][t + 1] = score[row0 * kSide + col0 + t + 1];
  cells[t + 1][0] = score[(row0 + t + 1) * kSide + col0];
  for (int r = 0; r < kTile; ++r) sim[r][t] = similarity[(row0 + r + 1) * kSide + col0 + t + 1];
  __syncthreads();

  // Cell anti-diagonals 0 .. 2*kTile-2; thread t owns column t+1.
  for (int d = 0; d < 2 * kTile - 1; ++d) {
    const int r = d - t;
    if (r >= 0 && r < kTile) {
      cells[r + 1][t + 1] = best_score(cells[r][t], cells[r][t + 1], cells[r + 1][t], sim[r][t]);
    }
    __syncthreads();
  }
  for (int r = 0; r < kTile; ++r) score[(row0 + r + 1) * kSide + col0 + t + 1] = cells[r + 1][t + 1];
}

std::vector<int> align_on_cpu(std::vector<int> score, const std::vector<int>& similarity) {
  for (int i = 1; i < kSide; ++i) {
    for (int j = 1; j < kSide; ++j) {
      score[i * kSide + j] = best_score(score[(i - 1) * kSide + j - 1], score[(i - 1) * kSide + j],
                                        score[i * kSide + j - 1], similarity[i * kSide + j]);
    }
  }
  return score;
}

}  // namespace

namespace bench {

const char* const workload_name = "needleman_wunsch";

Outcome run_workload(const Options& options) {
  static_assert(kLength % kTile == 0);
  Random random(4);
  int substitution[kAlphabet][kAlphabet];
  for (int a = 0; a < kAlphabet; ++a) {
    for (int b = 0; b <= a; ++b)
      substitution[a][b] = substitution[b][a] = a == b ? 4 + random.below(8) : -4 + int(random.below(6));
  }
  std::vector<int> first(kSide), second(kSide);
  for (auto& residue : first) residue = random.below(kAlphabet);
  for (auto& residue : second) residue = random.below(kAlphabet);
  std::vector<int> similarity(kSide * kSide, 0), score(kSide * kSide, 0);
  for (int i = 1; i < kSide; ++i) {
    for (int j = 1; j < kSide; ++j) similarity[i * kSide + j] = substitution[first[i]][second[j]];
  }
  for (int i = 0; i < kSide; ++i) {
    score[i * kSide] = -kGapPenalty * i;
    score[i] = -kGapPenalty * i;
  }

  DeviceBuffer<int> dev_score(score), dev_similarity(similarity);
  const float ms = time_repetitions(kRepetitionsAtFullScale, options, [&] {
    for (int d = 0; d < 2 * kTilesPerSide - 1; ++d) {
      const int tiles = std::min(d, 2 * kTilesPerSide - 2 - d) + 1;
      nw_tile_diagonal<<<tiles, kTile>>>(dev_score.get(), dev_similarity.get(), d);
    }
  });
  check_kernel("nw_tile_diagonal");

  const auto want = align_on_cpu(score, similarity);
  return {ms, compare_exact<int>("score", dev_score.download(), want)};
}

}  // namespace bench
