// kmeans (Rodinia/HeCBench-style): Lloyd iterations on the GPU. assign_and_accumulate stages the
// centroids in shared memory, labels each point with its nearest centroid and accumulates the members'
// coordinates with shared-memory atomics, flushing per-block sums with global atomics; update_centroids
// divides. Float atomics make the summation order vary, so the check is an invariant on the last
// iteration rather than a bit-exact replay:
// Check: (1) every point's label is a nearest centroid (within rounding) of the centroids that
// iteration used; (2) the new centroids are the means of the labelled members (CPU, double sums).
// Timed: `repetitions` runs of kIterations, each from the same initial centroids.
#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

#include "cuda_check.h"
#include "device_buffer.h"
#include "gpu_timer.h"
#include "random.h"
#include "workload.h"

namespace {

constexpr int kPoints = 1 << 19;
constexpr int kDims = 16;
constexpr int kClusters = 32;
constexpr int kCentroidFloats = kClusters * kDims;
constexpr int kIterations = 20;
constexpr int kThreads = 256;
constexpr int kRepetitionsAtFullScale = 160;

__host__ __device__ float squared_distance(const float* point, const float* centroid) {
  float sum = 0;
  for (int d = 0; d < kDims; ++d) {
    const float diff = point[d] - centroid[d];
    sum += diff * diff;
  }
  return sum;
}

__global__ void assign_and_accumulate(const float* points, const float* centroids, int* labels, float* sums,
                                      unsigned* counts) {
  __shared__ float shared_centroids[kCentroidFloats];
  __shared__ float block_sums[kCentroidFloats];
  __shared__ unsigned block_counts[kClusters];
  for (int i = threadIdx.x; i < kCentroidFloats; i += blockDim.x) {
    shared_centroids[i] = centroids[i];
    block_sums[i] = 0;
  }
  if (threadIdx.x < kClusters) block_counts[threadIdx.x] = 0;
  __syncthreads();

  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < kPoints) {
    const float* point = points + p * kDims;
    int best = 0;
    float best_distance = squared_distance(point, shared_centroids);
    for (int c = 1; c < kClusters; ++c) {
      const float distance = squared_distance(point, shared_centroids + c * kDims);
      if (distance < best_distance) {
        best_distance = distance;
        best = c;
      }
    }
    labels[p] = best;
    for (int d = 0; d < kDims; ++d) atomicAdd(&block_sums[best * kDims + d], point[d]);
    atomicAdd(&block_counts[best], 1u);
  }
  __syncthreads();

  for (int i = threadIdx.x; i < kCentroidFloats; i += blockDim.x) atomicAdd(&sums[i], block_sums[i]);
  if (threadIdx.x < kClusters) atomicAdd(&counts[threadIdx.x], block_counts[threadIdx.x]);
}

// One thread per centroid coordinate; an empty cluster keeps its centroid.
__global__ void update_centroids(const float* sums, const unsigned* counts, const float* old_centroids,
                                 float* new_centroids) {
  const int i = threadIdx.x;
  const unsigned count = counts[i / kDims];
  new_centroids[i] = count > 0 ? sums[i] / count : old_centroids[i];
}

std::string check_last_iteration(const std::vector<float>& points, const std::vector<float>& used,
                                 const std::vector<int>& labels, const std::vector<float>& updated) {
  std::vector<double> sums(kCentroidFloats, 0.0);
  std::vector<int> counts(kClusters, 0);
  for (int p = 0; p < kPoints; ++p) {
    const float* point = &points[p * kDims];
    float nearest = squared_distance(point, &used[0]);
    for (int c = 1; c < kClusters; ++c)
      nearest = std::min(nearest, squared_distance(point, &used[c * kDims]));
    const int label = labels[p];
    if (label < 0 || label >= kClusters ||
        squared_distance(point, &used[label * kDims]) > nearest * (1 + 1e-5f) + 1e-6f) {
      std::ostringstream out;
      out << "point " << p << " labelled " << label << ", which is not a nearest centroid";
      return out.str();
    }
    for (int d = 0; d < kDims; ++d) sums[label * kDims + d] += point[d];
    ++counts[label];
  }
  for (int i = 0; i < kCentroidFloats; ++i) {
    const int count = counts[i / kDims];
    const double want = count > 0 ? sums[i] / count : used[i];
    if (!(std::fabs(updated[i] - want) <= 5e-4 * (1 + std::fabs(want)))) {
      std::ostringstream out;
      out << "centroid coordinate " << i << " = " << updated[i] << ", mean of its members is " << want;
      return out.str();
    }
  }
  return {};
}

}  // namespace

namespace bench {

const char* const workload_name = "kmeans";

Outcome run_workload(const Options& options) {
  Random random(6);
  std::vector<float> centers(kCentroidFloats), points(static_cast<std::size_t>(kPoints) * kDims);
  for (auto& c : centers) c = random.uniform(-10.0f, 10.0f);
  for (int p = 0; p < kPoints; ++p) {
    const int cluster = random.below(kClusters);
    for (int d = 0; d < kDims; ++d)
      points[p * kDims + d] = centers[cluster * kDims + d] + random.uniform(-4.0f, 4.0f);
  }
  const std::vector<float> initial(points.begin(), points.begin() + kCentroidFloats);

  DeviceBuffer<float> dev_points(points), dev_initial(initial), centroids_a(kCentroidFloats),
      centroids_b(kCentroidFloats), sums(kCentroidFloats);
  DeviceBuffer<unsigned> counts(kClusters);
  DeviceBuffer<int> labels(kPoints);
  const int blocks = (kPoints + kThreads - 1) / kThreads;
  static_assert(kIterations % 2 == 0);  // the last iteration reads centroids_b and writes centroids_a
  const float ms = time_repetitions(kRepetitionsAtFullScale, options, [&] {
    check(
        cudaMemcpyAsync(centroids_a.get(), dev_initial.get(), dev_initial.bytes(), cudaMemcpyDeviceToDevice),
        "reset");
    for (int it = 0; it < kIterations; ++it) {
      const float* used = it % 2 == 0 ? centroids_a.get() : centroids_b.get();
      float* updated = it % 2 == 0 ? centroids_b.get() : centroids_a.get();
      check(cudaMemsetAsync(sums.get(), 0, sums.bytes()), "clear sums");
      check(cudaMemsetAsync(counts.get(), 0, counts.bytes()), "clear counts");
      assign_and_accumulate<<<blocks, kThreads>>>(dev_points.get(), used, labels.get(), sums.get(),
                                                  counts.get());
      update_centroids<<<1, kCentroidFloats>>>(sums.get(), counts.get(), used, updated);
    }
  });
  check_kernel("kmeans kernels");

  return {ms,
          check_last_iteration(points, centroids_b.download(), labels.download(), centroids_a.download())};
}

}  // namespace bench
