// cub_radix_sort: cub::DeviceRadixSort::SortPairs of 32-bit keys carrying their original index as value
// (CUB's onesweep LSD radix sort: shared-memory histograms and ranking, decoupled look-back).
// Check (invariants, O(n)): keys ascending; each value is an index whose input key is the output key;
// the values form a permutation; equal keys keep input order (the sort is stable).
// Timed: `repetitions` sorts of the same input into the same output buffers.
#include <cub/device/device_radix_sort.cuh>
#include <sstream>
#include <vector>

#include "cub_runner.h"
#include "device_buffer.h"
#include "random.h"
#include "workload.h"

namespace {

constexpr std::uint32_t kItems = 1u << 25;
constexpr std::uint32_t kKeyRange = 1u << 24;  // fewer keys than items: ties test stability
constexpr int kRepetitionsAtFullScale = 100;

std::string check_sorted(const std::vector<std::uint32_t>& input, const std::vector<std::uint32_t>& keys,
                         const std::vector<std::uint32_t>& values) {
  std::vector<bool> seen(kItems, false);
  for (std::uint32_t i = 0; i < kItems; ++i) {
    const std::uint32_t from = values[i];
    const char* problem = nullptr;
    if (from >= kItems || seen[from]) {
      problem = "value is not a permutation index";
    } else if (input[from] != keys[i]) {
      problem = "key does not match the input key of its value";
    } else if (i > 0 && keys[i - 1] > keys[i]) {
      problem = "keys out of order";
    } else if (i > 0 && keys[i - 1] == keys[i] && values[i - 1] > values[i]) {
      problem = "equal keys reordered (unstable)";
    }
    if (problem) {
      std::ostringstream out;
      out << "position " << i << " (key " << keys[i] << ", value " << from << "): " << problem;
      return out.str();
    }
    seen[from] = true;
  }
  return {};
}

}  // namespace

namespace bench {

const char* const workload_name = "cub_radix_sort";

Outcome run_workload(const Options& options) {
  Random random(11);
  std::vector<std::uint32_t> keys(kItems), indices(kItems);
  for (std::uint32_t i = 0; i < kItems; ++i) {
    keys[i] = random.below(kKeyRange);
    indices[i] = i;
  }

  DeviceBuffer<std::uint32_t> keys_in(keys), values_in(indices), keys_out(kItems), values_out(kItems);
  const float ms = time_cub_algorithm("DeviceRadixSort::SortPairs", kRepetitionsAtFullScale, options,
                                      [&](void* temp, std::size_t& temp_bytes) {
                                        return cub::DeviceRadixSort::SortPairs(
                                            temp, temp_bytes, keys_in.get(), keys_out.get(), values_in.get(),
                                            values_out.get(), kItems);
                                      });

  return {ms, check_sorted(keys, keys_out.download(), values_out.download())};
}

}  // namespace bench
