#pragma once
// Graph launches replayed node by node. The shim keeps a snapshot of every instantiated graph
// (shim/graph_snapshot.h), follows the updates of the instantiated graph, and at cuGraphLaunch runs the
// nodes itself, one at a time in a topological order, on the launch's stream: each kernel node goes
// through the launch observers like a cuLaunchKernel, and the sync observers hear the graph's edges
// (SyncKind::kGraphNode*). Any topological order is an execution the graph allows, so the application
// sees the same results; only the graph's speed changes.
#include <cuda.h>

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>

#include "shim/graph_snapshot.h"
#include "shim/hook_symbols.h"

namespace barracuda::shim {

class GraphReplays {
 public:
  // cuGraphInstantiate*: `flags` as the application gave them.
  void instantiated(CUgraphExec exec, CUgraph graph, cuuint64_t flags);
  // cuGraphExecUpdate succeeded: the instantiated graph now runs `graph`'s parameters.
  void updated(CUgraphExec exec, CUgraph graph);
  // cuGraphExecKernelNodeSetParams succeeded.
  void kernel_node_changed(CUgraphExec exec, CUgraphNode node, const CUDA_KERNEL_NODE_PARAMS& params);
  // Any other change of the instantiated graph (`entry` names the call): it is no longer replayed.
  void changed_unmodelled(CUgraphExec exec, std::string_view entry);
  void destroyed(CUgraphExec exec);

  // What a launch of `exec` replays: the snapshot, or why there is none.
  std::variant<std::shared_ptr<const GraphSnapshot>, Unsupported> replay_of(CUgraphExec exec) const;
  // True the first time a launch of `exec` is not replayed: the reason is told once per graph.
  bool first_fallback(CUgraphExec exec);

 private:
  struct Instantiated {
    cuuint64_t flags = 0;
    std::shared_ptr<const GraphSnapshot> snapshot;  // null when not replayable
    std::string not_replayable;
    bool fallback_told = false;
  };
  static Instantiated read(CUgraph graph, cuuint64_t flags);

  mutable std::mutex mutex_;
  std::unordered_map<CUgraphExec, Instantiated> execs_;
};

// Runs `snapshot`, the graph `exec`, on `stream` as the graph launch `entry` (cuGraphLaunch[_ptsz])
// would. Returns the first node's error like the graph launch would, or Unsupported when the replay
// could not start (nothing ran: the caller launches the graph itself).
std::variant<CUresult, Unsupported> replay_graph(const GraphSnapshot& snapshot, CUgraphExec exec, CUstream stream,
                                                 HookedSymbol entry);

}  // namespace barracuda::shim
