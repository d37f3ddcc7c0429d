// nbody (CUDA samples-style all-pairs gravity, split over the source bodies): block (i, s) computes the
// pull of source slice s on its 256 target bodies, staging the slice's positions through shared memory
// tile by tile (barriers before and after each tile), and adds its partial accelerations to the global
// ones with atomicAdd; a second kernel integrates one leapfrog step into new buffers.
// Check: CPU reference (double) of the accelerations and the step for a sample of bodies (an all-body
// CPU reference is O(n^2)); float atomics make the summation order vary, hence a tolerance.
// Timed: `repetitions` force evaluations + steps, each from the same initial state.
#include <cmath>
#include <sstream>
#include <vector>

#include "cuda_check.h"
#include "device_buffer.h"
#include "gpu_timer.h"
#include "random.h"
#include "workload.h"

namespace {

constexpr int kBodies = 1 << 15;
constexpr int kThreads = 256;
constexpr int kSourceSlices = 16;
constexpr int kSliceBodies = kBodies / kSourceSlices;
constexpr float kSoftening = 0.01f;  // squared
constexpr float kTimeStep = 0.001f;
constexpr int kSampledBodies = 512;
constexpr int kRepetitionsAtFullScale = 200;

__global__ void accumulate_accelerations(const float4* bodies, float3* accelerations) {
  __shared__ float4 tile[kThreads];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float4 me = bodies[i];
  float3 a = {0, 0, 0};
  const int first_source = blockIdx.y * kSliceBodies;
  for (int base = first_source; base < first_source + kSliceBodies; base += kThreads) {
    tile[threadIdx.x] = bodies[base + threadIdx.x];
    __syncthreads();
    for (int k = 0; k < kThreads; ++k) {
      const float4 other = tile[k];
      const float dx = other.x - me.x, dy = other.y - me.y, dz = other.z - me.z;
      const float inv = rsqrtf(dx * dx + dy * dy + dz * dz + kSoftening);
      const float s = other.w * inv * inv * inv;  // w holds the mass
      a.x += dx * s;
      a.y += dy * s;
      a.z += dz * s;
    }
    __syncthreads();
  }
  atomicAdd(&accelerations[i].x, a.x);
  atomicAdd(&accelerations[i].y, a.y);
  atomicAdd(&accelerations[i].z, a.z);
}

__host__ __device__ void leapfrog(float4 body, float3 velocity, float3 a, float4* new_body,
                                  float3* new_velocity) {
  const float3 v = {velocity.x + a.x * kTimeStep, velocity.y + a.y * kTimeStep, velocity.z + a.z * kTimeStep};
  *new_velocity = v;
  *new_body = {body.x + v.x * kTimeStep, body.y + v.y * kTimeStep, body.z + v.z * kTimeStep, body.w};
}

__global__ void integrate(const float4* bodies, const float3* velocities, const float3* accelerations,
                          float4* new_bodies, float3* new_velocities) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  leapfrog(bodies[i], velocities[i], accelerations[i], &new_bodies[i], &new_velocities[i]);
}

bool close(float got, double want) { return std::fabs(got - want) <= 1e-3 * (1 + std::fabs(want)); }

std::string check_sample(const std::vector<float4>& bodies, const std::vector<float3>& velocities,
                         const std::vector<float3>& accelerations, const std::vector<float4>& new_bodies) {
  const int stride = kBodies / kSampledBodies;
  for (int i = 0; i < kBodies; i += stride) {
    double ax = 0, ay = 0, az = 0;
    for (const float4& other : bodies) {
      const double dx = other.x - bodies[i].x, dy = other.y - bodies[i].y, dz = other.z - bodies[i].z;
      const double inv = 1.0 / std::sqrt(dx * dx + dy * dy + dz * dz + kSoftening);
      ax += dx * other.w * inv * inv * inv;
      ay += dy * other.w * inv * inv * inv;
      az += dz * other.w * inv * inv * inv;
    }
    float4 want_body;
    float3 want_velocity;
    leapfrog(bodies[i], velocities[i], {float(ax), float(ay), float(az)}, &want_body, &want_velocity);
    const float3 got = accelerations[i];
    if (!close(got.x, ax) || !close(got.y, ay) || !close(got.z, az) || !close(new_bodies[i].x, want_body.x) ||
        !close(new_bodies[i].y, want_body.y) || !close(new_bodies[i].z, want_body.z)) {
      std::ostringstream out;
      out << "body " << i << ": acceleration (" << got.x << ", " << got.y << ", " << got.z << "), expected ("
          << ax << ", " << ay << ", " << az << ")";
      return out.str();
    }
  }
  return {};
}

}  // namespace

namespace bench {

const char* const workload_name = "nbody";

Outcome run_workload(const Options& options) {
  static_assert(kBodies % kThreads == 0 && kSliceBodies % kThreads == 0);
  Random random(14);
  std::vector<float4> bodies(kBodies);
  std::vector<float3> velocities(kBodies);
  for (auto& b : bodies) {
    const float mass = random.uniform(0.5f, 1.5f) / kBodies;
    b = {random.uniform(-1, 1), random.uniform(-1, 1), random.uniform(-1, 1), mass};
  }
  for (auto& v : velocities) {
    v = {random.uniform(-0.1f, 0.1f), random.uniform(-0.1f, 0.1f), random.uniform(-0.1f, 0.1f)};
  }

  DeviceBuffer<float4> dev_bodies(bodies), new_bodies(kBodies);
  DeviceBuffer<float3> dev_velocities(velocities), accelerations(kBodies), new_velocities(kBodies);
  const dim3 force_grid(kBodies / kThreads, kSourceSlices);
  const float ms = time_repetitions(kRepetitionsAtFullScale, options, [&] {
    check(cudaMemsetAsync(accelerations.get(), 0, accelerations.bytes()), "clear accelerations");
    accumulate_accelerations<<<force_grid, kThreads>>>(dev_bodies.get(), accelerations.get());
    integrate<<<kBodies / kThreads, kThreads>>>(dev_bodies.get(), dev_velocities.get(), accelerations.get(),
                                                new_bodies.get(), new_velocities.get());
  });
  check_kernel("nbody kernels");

  return {ms, check_sample(bodies, velocities, accelerations.download(), new_bodies.download())};
}

}  // namespace bench
