// bfs (Rodinia/Gunrock-style queue BFS): level-synchronous breadth-first search from vertex 0 over a
// generated graph; one thread per frontier vertex claims unvisited neighbours with atomicCAS on their
// level and appends them to the next frontier with atomicAdd on its size.
// Check: full CPU BFS, every vertex's level exact.
// Timed: `repetitions` searches, each from a cleared level array.
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

constexpr std::uint32_t kVertices = 1u << 21;
constexpr std::uint32_t kExtraDegree = 8;
constexpr int kThreads = 256;
constexpr int kUnvisited = -1;
constexpr int kRepetitionsAtFullScale = 150;

__global__ void expand_frontier(const std::uint32_t* frontier, std::uint32_t frontier_size,
                                const std::uint32_t* row_offsets, const std::uint32_t* columns, int* level,
                                std::uint32_t* next, std::uint32_t* next_size, int next_level) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= frontier_size) return;
  const std::uint32_t u = frontier[i];
  for (std::uint32_t e = row_offsets[u]; e < row_offsets[u + 1]; ++e) {
    const std::uint32_t v = columns[e];
    if (atomicCAS(&level[v], kUnvisited, next_level) == kUnvisited) next[atomicAdd(next_size, 1u)] = v;
  }
}

std::vector<int> bfs_on_cpu(const bench::CsrGraph& graph) {
  std::vector<int> level(graph.vertices, kUnvisited);
  std::queue<std::uint32_t> queue;
  level[0] = 0;
  queue.push(0);
  while (!queue.empty()) {
    const std::uint32_t u = queue.front();
    queue.pop();
    for (std::uint32_t e = graph.row_offsets[u]; e < graph.row_offsets[u + 1]; ++e) {
      const std::uint32_t v = graph.columns[e];
      if (level[v] == kUnvisited) {
        level[v] = level[u] + 1;
        queue.push(v);
      }
    }
  }
  return level;
}

}  // namespace

namespace bench {

const char* const workload_name = "bfs";

Outcome run_workload(const Options& options) {
  const CsrGraph graph = generate_graph(kVertices, kExtraDegree, 1, 7);
  DeviceBuffer<std::uint32_t> row_offsets(graph.row_offsets), columns(graph.columns), frontier_a(kVertices),
      frontier_b(kVertices), next_size(1);
  DeviceBuffer<int> level(kVertices);
  const float ms = time_repetitions(kRepetitionsAtFullScale, options, [&] {
    check(cudaMemsetAsync(level.get(), 0xff, level.bytes()), "clear levels");  // kUnvisited everywhere
    check(cudaMemsetAsync(level.get(), 0, sizeof(int)), "source level");
    check(cudaMemsetAsync(frontier_a.get(), 0, sizeof(std::uint32_t)), "source vertex");
    std::uint32_t* frontier = frontier_a.get();
    std::uint32_t* next = frontier_b.get();
    std::uint32_t frontier_size = 1;
    for (int next_level = 1; frontier_size > 0; ++next_level) {
      check(cudaMemsetAsync(next_size.get(), 0, sizeof(std::uint32_t)), "clear frontier size");
      expand_frontier<<<(frontier_size + kThreads - 1) / kThreads, kThreads>>>(
          frontier, frontier_size, row_offsets.get(), columns.get(), level.get(), next, next_size.get(),
          next_level);
      check(cudaMemcpy(&frontier_size, next_size.get(), sizeof(std::uint32_t), cudaMemcpyDeviceToHost),
            "frontier size");
      std::swap(frontier, next);
    }
  });
  check_kernel("expand_frontier");

  return {ms, compare_exact<int>("level", level.download(), bfs_on_cpu(graph))};
}

}  // namespace bench
