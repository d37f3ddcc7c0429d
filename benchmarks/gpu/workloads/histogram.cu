// histogram (CUDA samples / HeCBench-style): 256-bin byte histogram of a skewed "image". Each block
// counts its grid-stride share in shared-memory bins with shared atomics, then adds its bins to the global
// histogram with global atomics; barriers separate clearing, counting and flushing the shared bins.
// Check: CPU histogram, exact.
// Timed: `repetitions` histograms of the same input, each into cleared global bins.
#include <vector>

#include "compare.h"
#include "cuda_check.h"
#include "device_buffer.h"
#include "gpu_timer.h"
#include "random.h"
#include "workload.h"

namespace {

constexpr std::size_t kBytes = std::size_t{1} << 26;
constexpr std::size_t kWords = kBytes / 4;
constexpr int kBins = 256;
constexpr int kThreads = 256;
constexpr int kBlocks = 1024;
constexpr int kRepetitionsAtFullScale = 1600;

__global__ void histogram_256(const std::uint32_t* words, std::uint32_t* bins) {
  __shared__ std::uint32_t block_bins[kBins];
  block_bins[threadIdx.x] = 0;
  __syncthreads();
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < kWords;
       i += std::size_t{gridDim.x} * blockDim.x) {
    const std::uint32_t word = words[i];
    for (int byte = 0; byte < 4; ++byte) atomicAdd(&block_bins[(word >> (8 * byte)) & 0xff], 1u);
  }
  __syncthreads();
  if (block_bins[threadIdx.x] != 0) atomicAdd(&bins[threadIdx.x], block_bins[threadIdx.x]);
}

}  // namespace

namespace bench {

const char* const workload_name = "histogram";

Outcome run_workload(const Options& options) {
  static_assert(kThreads == kBins);  // one shared bin per thread to clear and flush
  Random random(12);
  std::vector<std::uint32_t> words(kWords);
  std::vector<std::uint32_t> want(kBins, 0);
  for (auto& word : words) {
    word = 0;
    for (int byte = 0; byte < 4; ++byte) {
      const std::uint32_t value = (random.below(kBins) + random.below(kBins)) / 2;  // peaked in the middle
      word |= value << (8 * byte);
      ++want[value];
    }
  }

  DeviceBuffer<std::uint32_t> input(words), bins(kBins);
  const float ms = time_repetitions(kRepetitionsAtFullScale, options, [&] {
    check(cudaMemsetAsync(bins.get(), 0, bins.bytes()), "clear bins");
    histogram_256<<<kBlocks, kThreads>>>(input.get(), bins.get());
  });
  check_kernel("histogram_256");

  return {ms, compare_exact<std::uint32_t>("bin", bins.download(), want)};
}

}  // namespace bench
