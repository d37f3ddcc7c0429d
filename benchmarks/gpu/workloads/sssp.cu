// sssp (worklist Bellman-Ford, Gunrock/LonestarGPU-style): single-source shortest paths from vertex 0.
// One thread per frontier vertex reads its distance with a relaxed atomic load and lowers each
// neighbour's distance with a relaxed atomic fetch_min; a neighbour whose distance dropped is queued
// once per round (atomicExch on its queued flag). A second kernel clears the flags of the new frontier.
// Check: full CPU Dijkstra reference, exact.
// Timed: `repetitions` solves, each from cleared distances.
#include <cuda/atomic>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "compare.h"
#include "cuda_check.h"
#include "device_buffer.h"
#include "gpu_timer.h"
#include "graph.h"
#include "workload.h"

namespace {

constexpr std::uint32_t kVertices = 1u << 20;
constexpr std::uint32_t kExtraDegree = 8;
constexpr std::uint32_t kMaxWeight = 100;
constexpr std::uint32_t kInfinity = 0xffffffffu;
constexpr int kThreads = 256;
constexpr int kRepetitionsAtFullScale = 80;

using DeviceAtomic = cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device>;

__global__ void relax_frontier(const std::uint32_t* frontier, std::uint32_t frontier_size,
                               const std::uint32_t* row_offsets, const std::uint32_t* columns,
                               const std::uint32_t* weights, std::uint32_t* distance, std::uint32_t* queued,
                               std::uint32_t* next, std::uint32_t* next_size) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= frontier_size) return;
  const std::uint32_t u = frontier[i];
  const std::uint32_t du = DeviceAtomic(distance[u]).load(cuda::memory_order_relaxed);
  for (std::uint32_t e = row_offsets[u]; e < row_offsets[u + 1]; ++e) {
    const std::uint32_t v = columns[e];
    const std::uint32_t candidate = du + weights[e];
    if (candidate < DeviceAtomic(distance[v]).fetch_min(candidate, cuda::memory_order_relaxed) &&
        atomicExch(&queued[v], 1u) == 0) {
      next[atomicAdd(next_size, 1u)] = v;
    }
  }
}

__global__ void clear_queued(const std::uint32_t* frontier, std::uint32_t frontier_size,
                             std::uint32_t* queued) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < frontier_size) queued[frontier[i]] = 0;
}

std::vector<std::uint32_t> dijkstra_on_cpu(const bench::CsrGraph& graph) {
  std::vector<std::uint32_t> distance(graph.vertices, kInfinity);
  using Entry = std::pair<std::uint32_t, std::uint32_t>;  // (distance, vertex)
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
  distance[0] = 0;
  heap.push({0, 0});
  while (!heap.empty()) {
    const auto [d, u] = heap.top();
    heap.pop();
    if (d != distance[u]) continue;
    for (std::uint32_t e = graph.row_offsets[u]; e < graph.row_offsets[u + 1]; ++e) {
      const std::uint32_t v = graph.columns[e];
      if (d + graph.weights[e] < distance[v]) {
        distance[v] = d + graph.weights[e];
        heap.push({distance[v], v});
      }
    }
  }
  return distance;
}

}  // namespace

namespace bench {

const char* const workload_name = "sssp";

Outcome run_workload(const Options& options) {
  const CsrGraph graph = generate_graph(kVertices, kExtraDegree, kMaxWeight, 8);
  DeviceBuffer<std::uint32_t> row_offsets(graph.row_offsets), columns(graph.columns), weights(graph.weights),
      distance(kVertices), queued(kVertices), frontier_a(kVertices), frontier_b(kVertices), next_size(1);
  const float ms = time_repetitions(kRepetitionsAtFullScale, options, [&] {
    check(cudaMemsetAsync(distance.get(), 0xff, distance.bytes()), "clear distances");  // kInfinity
    check(cudaMemsetAsync(distance.get(), 0, sizeof(std::uint32_t)), "source distance");
    check(cudaMemsetAsync(queued.get(), 0, queued.bytes()), "clear queued flags");
    check(cudaMemsetAsync(frontier_a.get(), 0, sizeof(std::uint32_t)), "source vertex");
    std::uint32_t* frontier = frontier_a.get();
    std::uint32_t* next = frontier_b.get();
    std::uint32_t frontier_size = 1;
    while (frontier_size > 0) {
      const unsigned blocks = (frontier_size + kThreads - 1) / kThreads;
      check(cudaMemsetAsync(next_size.get(), 0, sizeof(std::uint32_t)), "clear frontier size");
      relax_frontier<<<blocks, kThreads>>>(frontier, frontier_size, row_offsets.get(), columns.get(),
                                           weights.get(), distance.get(), queued.get(), next,
                                           next_size.get());
      check(cudaMemcpy(&frontier_size, next_size.get(), sizeof(std::uint32_t), cudaMemcpyDeviceToHost),
            "frontier size");
      if (frontier_size > 0) {
        clear_queued<<<(frontier_size + kThreads - 1) / kThreads, kThreads>>>(next, frontier_size,
                                                                              queued.get());
      }
      std::swap(frontier, next);
    }
  });
  check_kernel("relax_frontier");

  return {ms, compare_exact<std::uint32_t>("distance", distance.download(), dijkstra_on_cpu(graph))};
}

}  // namespace bench
