#include "workload.h"

#include <algorithm>
#include <cmath>

namespace bench {

int scaled_repetitions(int at_full_scale, const Options& options) {
  // Clamped so that an absurd --scale cannot overflow the count.
  return static_cast<int>(std::lround(std::clamp(at_full_scale * options.scale, 1.0, 1e9)));
}

}  // namespace bench
