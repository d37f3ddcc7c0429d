// hotspot (Rodinia-style thermal stencil): a chip's temperature grid evolves under its power map, one
// 5-point stencil step per launch, each block staging its tile plus a one-cell halo in shared memory.
// Check: full CPU reference of the same steps (float, tolerance for FMA contraction).
// Timed: `repetitions` simulations, each restarting from the initial temperatures.
#include <algorithm>
#include <vector>

#include "compare.h"
#include "cuda_check.h"
#include "device_buffer.h"
#include "gpu_timer.h"
#include "random.h"
#include "workload.h"

namespace {

constexpr int kGrid = 2048;  // cells per side
constexpr int kSteps = 20;   // per simulation; even, so the result ends in the first buffer
constexpr int kTile = 16;
constexpr int kRepetitionsAtFullScale = 800;

struct Coefficients {
  float lateral_x = 0.10f;
  float lateral_y = 0.10f;
  float vertical = 0.01f;
  float power = 0.05f;
  float ambient = 80.0f;
};

__host__ __device__ float next_temperature(float t, float north, float south, float east, float west,
                                           float power, Coefficients c) {
  return t + c.power * power + c.lateral_y * (north + south - 2.0f * t) +
         c.lateral_x * (east + west - 2.0f * t) + c.vertical * (c.ambient - t);
}

__device__ float temperature_clamped(const float* temp, int x, int y) {
  x = min(max(x, 0), kGrid - 1);
  y = min(max(y, 0), kGrid - 1);
  return temp[y * kGrid + x];
}

__global__ void hotspot_step(const float* temp, const float* power, float* next, Coefficients c) {
  __shared__ float tile[kTile + 2][kTile + 2];
  const int x = blockIdx.x * kTile + threadIdx.x;
  const int y = blockIdx.y * kTile + threadIdx.y;
  const int tx = threadIdx.x + 1;
  const int ty = threadIdx.y + 1;
  tile[ty][tx] = temp[y * kGrid + x];
  if (threadIdx.x == 0) tile[ty][0] = temperature_clamped(temp, x - 1, y);
  if (threadIdx.x == kTile - 1) tile[ty][kTile + 1] = temperature_clamped(temp, x + 1, y);
  if (threadIdx.y == 0) tile[0][tx] = temperature_clamped(temp, x, y - 1);
  if (threadIdx.y == kTile - 1) tile[kTile + 1][tx] = temperature_clamped(temp, x, y + 1);
  __syncthreads();
  next[y * kGrid + x] = next_temperature(tile[ty][tx], tile[ty - 1][tx], tile[ty + 1][tx], tile[ty][tx + 1],
                                         tile[ty][tx - 1], power[y * kGrid + x], c);
}

std::vector<float> simulate_on_cpu(std::vector<float> temp, const std::vector<float>& power, Coefficients c) {
  std::vector<float> next(temp.size());
  auto at = [&](int x, int y) {
    return temp[std::clamp(y, 0, kGrid - 1) * kGrid + std::clamp(x, 0, kGrid - 1)];
  };
  for (int step = 0; step < kSteps; ++step) {
    for (int y = 0; y < kGrid; ++y) {
      for (int x = 0; x < kGrid; ++x) {
        next[y * kGrid + x] = next_temperature(at(x, y), at(x, y - 1), at(x, y + 1), at(x + 1, y),
                                               at(x - 1, y), power[y * kGrid + x], c);
      }
    }
    temp.swap(next);
  }
  return temp;
}

}  // namespace

namespace bench {

const char* const workload_name = "hotspot";

Outcome run_workload(const Options& options) {
  static_assert(kGrid % kTile == 0 && kSteps % 2 == 0);
  Random random(1);
  std::vector<float> temp(kGrid * kGrid), power(kGrid * kGrid);
  for (auto& t : temp) t = random.uniform(320.0f, 340.0f);
  for (auto& p : power) p = random.uniform(0.0f, 1.0f);
  const Coefficients c;

  DeviceBuffer<float> initial(temp), dev_power(power), current(temp.size()), next(temp.size());
  const dim3 grid(kGrid / kTile, kGrid / kTile), block(kTile, kTile);
  const float ms = time_repetitions(kRepetitionsAtFullScale, options, [&] {
    check(cudaMemcpyAsync(current.get(), initial.get(), initial.bytes(), cudaMemcpyDeviceToDevice), "reset");
    for (int step = 0; step < kSteps; step += 2) {
      hotspot_step<<<grid, block>>>(current.get(), dev_power.get(), next.get(), c);
      hotspot_step<<<grid, block>>>(next.get(), dev_power.get(), current.get(), c);
    }
  });
  check_kernel("hotspot_step");

  const auto want = simulate_on_cpu(temp, power, c);
  const auto got = current.download();
  return {ms, compare_close("temperature", got, want, 1e-5f, 1e-3f)};
}

}  // namespace bench
