// cub_reduce: cub::DeviceReduce::Sum of 32-bit values into a 64-bit total (CUB's tuned single-pass
// reduction: block-level shared-memory reductions plus a second pass over the per-block partials).
// Check: CPU sum, exact.
// Timed: `repetitions` reductions of the same input.
#include <cub/device/device_reduce.cuh>
#include <numeric>
#include <sstream>
#include <vector>

#include "cub_runner.h"
#include "device_buffer.h"
#include "random.h"
#include "workload.h"

namespace {

constexpr std::size_t kItems = std::size_t{1} << 26;
constexpr int kRepetitionsAtFullScale = 1500;

}  // namespace

namespace bench {

const char* const workload_name = "cub_reduce";

Outcome run_workload(const Options& options) {
  Random random(9);
  std::vector<std::uint32_t> values(kItems);
  for (auto& v : values) v = static_cast<std::uint32_t>(random.next());

  DeviceBuffer<std::uint32_t> input(values);
  DeviceBuffer<unsigned long long> total(1);
  const float ms = time_cub_algorithm(
      "DeviceReduce::Sum", kRepetitionsAtFullScale, options, [&](void* temp, std::size_t& temp_bytes) {
        return cub::DeviceReduce::Sum(temp, temp_bytes, input.get(), total.get(), kItems);
      });

  const unsigned long long want = std::accumulate(values.begin(), values.end(), 0ull);
  const unsigned long long got = total.download()[0];
  if (got == want) return {ms, {}};
  std::ostringstream failure;
  failure << "sum " << got << ", expected " << want;
  return {ms, failure.str()};
}

}  // namespace bench
