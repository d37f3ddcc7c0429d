// Runs a CUB device-wide algorithm the way CUB asks to be called: once with null temporary storage to
// learn its size, then with storage allocated once and reused by every timed repetition.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "cuda_check.h"
#include "device_buffer.h"
#include "gpu_timer.h"
#include "workload.h"

namespace bench {

// `algorithm(void* temp_storage, std::size_t& temp_bytes)` calls one CUB entry point.
template <typename Algorithm>
float time_cub_algorithm(const char* name, int at_full_scale, const Options& options, Algorithm&& algorithm) {
  std::size_t temp_bytes = 0;
  check(algorithm(nullptr, temp_bytes), name);
  DeviceBuffer<std::byte> temp(temp_bytes);
  const float ms =
      time_repetitions(at_full_scale, options, [&] { check(algorithm(temp.get(), temp_bytes), name); });
  check_kernel(name);
  return ms;
}

}  // namespace bench
