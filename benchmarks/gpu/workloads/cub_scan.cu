// cub_scan: cub::DeviceScan::ExclusiveSum over 32-bit values (CUB's decoupled look-back single-pass
// scan: blocks publish their aggregates through device-memory flags that later blocks poll).
// Check: CPU exclusive prefix sum (wrapping 32-bit arithmetic), exact.
// Timed: `repetitions` scans of the same input.
#include <cub/device/device_scan.cuh>
#include <numeric>
#include <vector>

#include "compare.h"
#include "cub_runner.h"
#include "device_buffer.h"
#include "random.h"
#include "workload.h"

namespace {

constexpr std::size_t kItems = std::size_t{1} << 26;
constexpr int kRepetitionsAtFullScale = 800;

}  // namespace

namespace bench {

const char* const workload_name = "cub_scan";

Outcome run_workload(const Options& options) {
  Random random(10);
  std::vector<std::uint32_t> values(kItems);
  for (auto& v : values) v = random.below(1000);

  DeviceBuffer<std::uint32_t> input(values), output(kItems);
  const float ms = time_cub_algorithm(
      "DeviceScan::ExclusiveSum", kRepetitionsAtFullScale, options, [&](void* temp, std::size_t& temp_bytes) {
        return cub::DeviceScan::ExclusiveSum(temp, temp_bytes, input.get(), output.get(), kItems);
      });

  std::vector<std::uint32_t> want(kItems);
  std::exclusive_scan(values.begin(), values.end(), want.begin(), std::uint32_t{0});
  return {ms, compare_exact<std::uint32_t>("prefix", output.download(), want)};
}

}  // namespace bench
