// Deterministic random graphs in CSR form for the graph workloads (BFS, SSSP).
#pragma once

#include <cstdint>
#include <vector>

namespace bench {

struct CsrGraph {
  std::uint32_t vertices = 0;
  // vertices + 1 entries: the edges of v are [row_offsets[v], row_offsets[v + 1]).
  std::vector<std::uint32_t> row_offsets;
  std::vector<std::uint32_t> columns;  // edge targets
  std::vector<std::uint32_t> weights;  // one per edge, in [1, max_weight]
};

// A directed graph with a ring (v -> v+1, so every vertex is reachable from 0) plus on average
// `extra_degree` random edges per vertex, half of them to nearby vertices (locality, long paths) and half
// anywhere (small diameter): roughly the mix of road-like and social-like inputs in the usual suites.
CsrGraph generate_graph(std::uint32_t vertices, std::uint32_t extra_degree, std::uint32_t max_weight,
                        std::uint64_t seed);

}  // namespace bench
