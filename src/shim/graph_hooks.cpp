// Graph entry points: instantiation and updates keep the shim's snapshot of each instantiated graph
// current (shim/graph_replay.h), and a launch replays the graph node by node where it can. Where it
// cannot, the graph runs as the driver's one call, announced as one launch of unknown kernels.
#include "shim/interceptors.h"
#include "shim/launch_announcement.h"

namespace barracuda::shim {
namespace {

// Snapshots cost driver calls at instantiation: only taken when someone watches launches.
template <typename Instantiate>
CUresult snapshot_instantiation(CUgraphExec* exec, CUgraph graph, cuuint64_t flags, Instantiate&& instantiate) {
  const CUresult result = instantiate();
  ShimRuntime& runtime = shim_runtime();
  if (result == CUDA_SUCCESS && exec != nullptr && !runtime.launch_observers.empty()) {
    runtime.graphs.instantiated(*exec, graph, flags);
  }
  return result;
}

}  // namespace

CUresult intercept_graph_instantiate_with_flags(const DriverEntry& entry, CUgraphExec* exec, CUgraph graph,
                                                unsigned long long flags) {
  return snapshot_instantiation(
      exec, graph, flags, [&] { return entry.real_as<PFN_cuGraphInstantiateWithFlags_v11040>()(exec, graph, flags); });
}

CUresult intercept_graph_instantiate_with_params(const DriverEntry& entry, CUgraphExec* exec, CUgraph graph,
                                                 CUDA_GRAPH_INSTANTIATE_PARAMS* params) {
  return snapshot_instantiation(exec, graph, params != nullptr ? params->flags : 0, [&] {
    return entry.real_as<PFN_cuGraphInstantiateWithParams_v12000>()(exec, graph, params);
  });
}

CUresult intercept_graph_exec_destroy(const DriverEntry& entry, CUgraphExec exec) {
  const CUresult result = entry.real_as<PFN_cuGraphExecDestroy_v10000>()(exec);
  if (result == CUDA_SUCCESS) shim_runtime().graphs.destroyed(exec);
  return result;
}

CUresult intercept_graph_exec_kernel_node_set_params(const DriverEntry& entry, CUgraphExec exec, CUgraphNode node,
                                                     const CUDA_KERNEL_NODE_PARAMS* params) {
  const CUresult result = entry.real_as<PFN_cuGraphExecKernelNodeSetParams_v12000>()(exec, node, params);
  if (result == CUDA_SUCCESS && params != nullptr) shim_runtime().graphs.kernel_node_changed(exec, node, *params);
  return result;
}

CUresult intercept_graph_exec_update(const DriverEntry& entry, CUgraphExec exec, CUgraph graph,
                                     CUgraphExecUpdateResultInfo* result_info) {
  const CUresult result = entry.real_as<PFN_cuGraphExecUpdate_v12000>()(exec, graph, result_info);
  if (result == CUDA_SUCCESS) shim_runtime().graphs.updated(exec, graph);
  return result;
}

CUresult intercept_graph_launch(const DriverEntry& entry, CUgraphExec exec, CUstream stream) {
  auto real = entry.real_as<PFN_cuGraphLaunch_v10000>();
  ShimRuntime& runtime = shim_runtime();
  if (ReentrancyGuard::inside_hook() || runtime.launch_observers.empty()) return real(exec, stream);
  std::string not_replayed;
  std::variant<std::shared_ptr<const GraphSnapshot>, Unsupported> replay = runtime.graphs.replay_of(exec);
  if (const auto* snapshot = std::get_if<std::shared_ptr<const GraphSnapshot>>(&replay)) {
    std::variant<CUresult, Unsupported> replayed = replay_graph(**snapshot, exec, stream, entry.symbol);
    if (const auto* result = std::get_if<CUresult>(&replayed)) return *result;
    not_replayed = std::move(std::get<Unsupported>(replayed).why);
  } else {
    not_replayed = std::move(std::get<Unsupported>(replay).why);
  }
  if (!runtime.graphs.first_fallback(exec)) not_replayed.clear();
  return announce_launch(
      [&] {
        // Its kernels run unseen: no dimensions (0, not Dim3's default of 1).
        LaunchCall info{entry.symbol, nullptr, {}, ModuleId::Unknown, Dim3{0, 0, 0}, Dim3{0, 0, 0}, 0, stream, true};
        info.graph_not_replayed = not_replayed;
        return info;
      },
      [&] { return real(exec, stream); });
}

void forget_replay(CUgraphExec exec, HookedSymbol entry) {
  shim_runtime().graphs.changed_unmodelled(exec, exported_name(entry));
}

}  // namespace barracuda::shim
