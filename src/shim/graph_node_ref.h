#pragma once
// Names one node of an instantiated graph that the shim replays node by node (shim/graph_replay.h).
#include <cuda.h>

#include <cstdint>

namespace barracuda::shim {

struct GraphNodeRef {
  CUgraphExec exec = nullptr;  // null: no graph node
  std::uint32_t node = 0;      // position in the replay's topological order (child graphs flattened)

  bool operator==(const GraphNodeRef&) const = default;
};

}  // namespace barracuda::shim
