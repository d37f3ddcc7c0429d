#include "graph.h"

#include "random.h"

namespace bench {

CsrGraph generate_graph(std::uint32_t vertices, std::uint32_t extra_degree, std::uint32_t max_weight,
                        std::uint64_t seed) {
  constexpr std::uint32_t kNeighbourhood = 1024;
  Random random(seed);
  CsrGraph graph;
  graph.vertices = vertices;
  graph.row_offsets.reserve(vertices + 1);
  graph.columns.reserve(static_cast<std::size_t>(vertices) * (extra_degree + 1));
  for (std::uint32_t v = 0; v < vertices; ++v) {
    graph.row_offsets.push_back(static_cast<std::uint32_t>(graph.columns.size()));
    graph.columns.push_back((v + 1) % vertices);
    // Degrees vary (0 .. 2 * extra_degree extra edges) so that threads get unequal work, as in real graphs.
    const std::uint32_t extra = random.below(2 * extra_degree + 1);
    for (std::uint32_t e = 0; e < extra; ++e) {
      const bool nearby = (e & 1) == 0;
      graph.columns.push_back(nearby ? (v + 1 + random.below(kNeighbourhood)) % vertices
                                     : random.below(vertices));
    }
  }
  graph.row_offsets.push_back(static_cast<std::uint32_t>(graph.columns.size()));
  graph.weights.resize(graph.columns.size());
  for (auto& w : graph.weights) w = 1 + random.below(max_weight);
  return graph;
}

}  // namespace bench
