#pragma once
// The litmus kernel: the first `test_blocks` blocks run test instances on the threads the host assigned
// (placement.h); their idle threads and any further blocks hammer a scratchpad when stress is on.
// One instantiation per test and variant, looked up at run time in kKernels[test][variant].

#include <array>
#include <cstdint>
#include <utility>

#include "placement.h"
#include "roles.cuh"

namespace litmus {

inline constexpr uint32_t kLineWords = 32;  // one 128-byte line
inline constexpr int kStartWaitLoads = 1 << 20;

struct DeviceBuffers {
  int32_t* roles;     // role of each thread of the test blocks (placement.h)
  uint32_t* slots;    // memory slot of each instance's x and y
  uint32_t* memory;   // the litmus locations, `spread_words` apart
  uint32_t* results;  // 4 words per instance
  uint32_t* scratch;  // the stress scratchpad, `stress_lines` lines
  unsigned* start;    // arrival counter of the start barrier
};

struct LaunchParams {
  int test_blocks;
  uint32_t spread_words;  // distance between two litmus locations
  bool stress;
  uint32_t stress_lines;       // lines of the scratchpad hammered
  uint32_t stress_iterations;  // store+load pairs per stressing thread
  bool await_flag;             // detector runs (roles.cuh)
};

__device__ inline void stress_scratchpad(uint32_t* scratch, const LaunchParams& p) {
  uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  for (uint32_t k = 0; k < p.stress_iterations; ++k) {
    uint32_t* line = scratch + ((t * 7 + k * 13) % p.stress_lines) * kLineWords;
    store<Access::kVolatile>(line, k);
    (void)load<Access::kVolatile>(line + 1);
  }
}

template <LitmusTest T, Access D, Access S, Fence F>
__global__ void litmus_kernel(DeviceBuffers b, LaunchParams p) {
  // Start together: every block arrives before any runs its role, so roles overlap in time. The host
  // sizes the grid to be co-resident; the bound keeps a grid that is not from hanging the device.
  if (threadIdx.x == 0) {
    atomicAdd(b.start, 1u);
    for (int n = 0; load<Access::kVolatile>(b.start) < gridDim.x && n < kStartWaitLoads; ++n) {
    }
  }
  __syncthreads();
  int32_t a = kIdle;
  if (static_cast<int>(blockIdx.x) < p.test_blocks) a = b.roles[blockIdx.x * blockDim.x + threadIdx.x];
  if (a == kIdle) {
    if (p.stress) stress_scratchpad(b.scratch, p);
    return;
  }
  int instance = a >> 2;
  uint32_t* x = b.memory + b.slots[2 * instance] * p.spread_words;
  uint32_t* y = b.memory + b.slots[2 * instance + 1] * p.spread_words;
  run_role<T, D, S, F>(a & 3, x, y, b.results + 4 * instance, p.await_flag);
}

using KernelFn = void (*)(DeviceBuffers, LaunchParams);

template <size_t TI, size_t VI>
constexpr KernelFn kernel_for() {
  constexpr Variant v = kVariants[VI];
  return &litmus_kernel<kAllTests[TI], v.data, v.sync, v.fence>;
}
template <size_t TI, size_t... VI>
constexpr std::array<KernelFn, sizeof...(VI)> kernels_of_test(std::index_sequence<VI...>) {
  return {kernel_for<TI, VI>()...};
}
template <size_t... TI>
constexpr auto kernel_table(std::index_sequence<TI...>) {
  return std::array{kernels_of_test<TI>(std::make_index_sequence<kVariants.size()>())...};
}
inline const auto kKernels = kernel_table(std::make_index_sequence<kAllTests.size()>());

}  // namespace litmus
