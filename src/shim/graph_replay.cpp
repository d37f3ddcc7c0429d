#include "shim/graph_replay.h"

#include <cudaTypedefs.h>

#include <utility>

#include "shim/launch_announcement.h"
#include "shim/real_driver.h"

namespace barracuda::shim {
namespace {

// Device-launchable graphs run where the host never sees their launches.
constexpr cuuint64_t kUnreplayableFlags = CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH;
constexpr std::string_view kNotSeen = "the graph was instantiated where barracuda did not see it";

// The driver's own functions (never the shim's wrappers: the replay announces what it runs itself).
struct ReplayDriver {
  PFN_cuLaunchKernelEx_v11060 launch_kernel_ex;
  PFN_cuMemcpy3DAsync_v3020 memcpy_3d_async;
  PFN_cuMemsetD2D8Async_v3020 memset_8_async;
  PFN_cuMemsetD2D16Async_v3020 memset_16_async;
  PFN_cuMemsetD2D32Async_v3020 memset_32_async;
  PFN_cuLaunchHostFunc_v10000 launch_host_func;
  PFN_cuEventRecord_v2000 event_record;
  PFN_cuStreamWaitEvent_v3020 stream_wait_event;
  PFN_cuStreamIsCapturing_v10000 stream_is_capturing;

  bool complete() const {
    return launch_kernel_ex && memcpy_3d_async && memset_8_async && memset_16_async && memset_32_async &&
           launch_host_func && event_record && stream_wait_event && stream_is_capturing;
  }
};

const ReplayDriver& replay_driver() {
  static const ReplayDriver driver{
      reinterpret_cast<PFN_cuLaunchKernelEx_v11060>(libcuda_symbol("cuLaunchKernelEx")),
      reinterpret_cast<PFN_cuMemcpy3DAsync_v3020>(libcuda_symbol("cuMemcpy3DAsync_v2")),
      reinterpret_cast<PFN_cuMemsetD2D8Async_v3020>(libcuda_symbol("cuMemsetD2D8Async")),
      reinterpret_cast<PFN_cuMemsetD2D16Async_v3020>(libcuda_symbol("cuMemsetD2D16Async")),
      reinterpret_cast<PFN_cuMemsetD2D32Async_v3020>(libcuda_symbol("cuMemsetD2D32Async")),
      reinterpret_cast<PFN_cuLaunchHostFunc_v10000>(libcuda_symbol("cuLaunchHostFunc")),
      reinterpret_cast<PFN_cuEventRecord_v2000>(libcuda_symbol("cuEventRecord")),
      reinterpret_cast<PFN_cuStreamWaitEvent_v3020>(libcuda_symbol("cuStreamWaitEvent")),
      reinterpret_cast<PFN_cuStreamIsCapturing_v10000>(libcuda_symbol("cuStreamIsCapturing")),
  };
  return driver;
}

void announce_order(SyncEvent event) {
  shim_runtime().sync_observers.for_each([&](SyncObserver& observer) { observer.synchronized(event); });
}

// Runs the nodes of one replay; `stream` is what the application passed, `run_on` the stream the
// driver calls get (the per-thread default stream made explicit for "_ptsz").
class Replay {
 public:
  Replay(const ReplayDriver& driver, CUgraphExec exec, CUstream stream, CUstream run_on, HookedSymbol entry)
      : driver_(driver), exec_(exec), stream_(stream), run_on_(run_on), entry_(entry) {}

  CUresult run(const GraphSnapshot& snapshot) {
    for (std::uint32_t position = 0; position < snapshot.nodes.size(); ++position) {
      const SnapshotNode& node = snapshot.nodes[position];
      if (node.predecessors.empty()) announce(SyncKind::kGraphNodeFollowsStream, position);
      for (std::uint32_t predecessor : node.predecessors) {
        SyncEvent edge = event(SyncKind::kGraphNodeFollowsNode, position);
        edge.earlier_node = {exec_, predecessor};
        announce_order(edge);
      }
      const CUresult result = std::visit([&](const auto& work) { return run_node(work, position); }, node.work);
      if (result != CUDA_SUCCESS) {
        // Whatever was issued before the failure still precedes the stream's later work.
        for (std::uint32_t issued = 0; issued < position; ++issued) announce(SyncKind::kStreamFollowsGraphNode, issued);
        return result;
      }
    }
    for (std::uint32_t position = 0; position < snapshot.nodes.size(); ++position) {
      if (snapshot.nodes[position].last) announce(SyncKind::kStreamFollowsGraphNode, position);
    }
    return CUDA_SUCCESS;
  }

 private:
  SyncEvent event(SyncKind kind, std::uint32_t position) const {
    SyncEvent event{kind, stream_};
    event.per_thread_stream = entry_.per_thread_stream;
    event.graph_node = {exec_, position};
    return event;
  }
  void announce(SyncKind kind, std::uint32_t position) const { announce_order(event(kind, position)); }

  CUresult run_node(const EmptyNode&, std::uint32_t) { return CUDA_SUCCESS; }

  CUresult run_node(const KernelNode& kernel, std::uint32_t position) {
    CUlaunchConfig config{};
    config.gridDimX = kernel.grid.x;
    config.gridDimY = kernel.grid.y;
    config.gridDimZ = kernel.grid.z;
    config.blockDimX = kernel.block.x;
    config.blockDimY = kernel.block.y;
    config.blockDimZ = kernel.block.z;
    config.sharedMemBytes = kernel.shared_mem_bytes;
    config.hStream = run_on_;
    // The driver only reads the attributes and arguments.
    config.attrs = const_cast<CUlaunchAttribute*>(kernel.attributes.data());
    config.numAttrs = static_cast<unsigned>(kernel.attributes.size());
    auto* bytes = const_cast<unsigned char*>(kernel.argument_bytes.data());
    std::vector<void*> arguments;
    for (std::size_t offset : kernel.argument_offsets) arguments.push_back(bytes + offset);
    std::size_t packed_size = kernel.argument_bytes.size();
    void* packed[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, bytes, CU_LAUNCH_PARAM_BUFFER_SIZE, &packed_size,
                      CU_LAUNCH_PARAM_END};
    void** kernel_params = kernel.packed_arguments ? nullptr : arguments.data();
    void** extra = kernel.packed_arguments ? packed : nullptr;
    return observe_launch(
        {Hook::GraphLaunch, entry_.per_thread_stream}, kernel.function, kernel.grid, kernel.block,
        kernel.shared_mem_bytes, stream_, kernel_params,
        [&] { return driver_.launch_kernel_ex(&config, kernel.function, kernel_params, extra); },
        GraphNodeRef{exec_, position});
  }

  CUresult run_node(const MemcpyNode& copy, std::uint32_t) { return driver_.memcpy_3d_async(&copy.copy, run_on_); }

  CUresult run_node(const MemsetNode& set, std::uint32_t) {
    const CUDA_MEMSET_NODE_PARAMS& p = set.memset;
    // The pitch is unused for one row, where the node may leave it 0; the driver call checks it.
    const std::size_t pitch = p.height <= 1 ? p.width * p.elementSize : p.pitch;
    switch (p.elementSize) {
      case 1: return driver_.memset_8_async(p.dst, pitch, static_cast<unsigned char>(p.value), p.width, p.height, run_on_);
      case 2: return driver_.memset_16_async(p.dst, pitch, static_cast<unsigned short>(p.value), p.width, p.height, run_on_);
      case 4: return driver_.memset_32_async(p.dst, pitch, p.value, p.width, p.height, run_on_);
      default: return CUDA_ERROR_INVALID_VALUE;
    }
  }

  CUresult run_node(const HostNode& host, std::uint32_t) {
    return driver_.launch_host_func(run_on_, host.call.fn, host.call.userData);
  }

  CUresult run_node(const EventRecordNode& record, std::uint32_t position) {
    const CUresult result = driver_.event_record(record.event, run_on_);
    if (result == CUDA_SUCCESS) {
      SyncEvent recorded = event(SyncKind::kEventRecorded, position);
      recorded.event = record.event;
      announce_order(recorded);
    }
    return result;
  }

  CUresult run_node(const EventWaitNode& wait, std::uint32_t position) {
    const CUresult result = driver_.stream_wait_event(run_on_, wait.event, 0);
    if (result == CUDA_SUCCESS) {
      SyncEvent waited = event(SyncKind::kStreamWaitsEvent, position);
      waited.event = wait.event;
      announce_order(waited);
    }
    return result;
  }

  const ReplayDriver& driver_;
  CUgraphExec exec_;
  CUstream stream_;
  CUstream run_on_;
  HookedSymbol entry_;
};

}  // namespace

GraphReplays::Instantiated GraphReplays::read(CUgraph graph, cuuint64_t flags) {
  Instantiated instantiated;
  instantiated.flags = flags;
  if ((flags & kUnreplayableFlags) != 0) {
    instantiated.not_replayable = "the graph was instantiated for device launch";
    return instantiated;
  }
  std::variant<GraphSnapshot, Unsupported> snapshot = snapshot_graph(graph);
  if (auto* unsupported = std::get_if<Unsupported>(&snapshot)) {
    instantiated.not_replayable = std::move(unsupported->why);
  } else {
    instantiated.snapshot = std::make_shared<const GraphSnapshot>(std::move(std::get<GraphSnapshot>(snapshot)));
  }
  return instantiated;
}

void GraphReplays::instantiated(CUgraphExec exec, CUgraph graph, cuuint64_t flags) {
  Instantiated read_now = read(graph, flags);
  std::lock_guard lock(mutex_);
  execs_[exec] = std::move(read_now);
}

void GraphReplays::updated(CUgraphExec exec, CUgraph graph) {
  cuuint64_t flags = 0;
  {
    std::lock_guard lock(mutex_);
    if (const auto known = execs_.find(exec); known != execs_.end()) flags = known->second.flags;
  }
  instantiated(exec, graph, flags);
}

void GraphReplays::kernel_node_changed(CUgraphExec exec, CUgraphNode node, const CUDA_KERNEL_NODE_PARAMS& params) {
  std::lock_guard lock(mutex_);
  const auto known = execs_.find(exec);
  if (known == execs_.end() || known->second.snapshot == nullptr) return;
  Instantiated& instantiated = known->second;
  const auto position = instantiated.snapshot->position_of.find(node);
  const KernelNode* old = position == instantiated.snapshot->position_of.end()
                              ? nullptr
                              : std::get_if<KernelNode>(&instantiated.snapshot->nodes[position->second].work);
  if (old == nullptr) {
    instantiated.not_replayable = "cuGraphExecKernelNodeSetParams named a node the snapshot has no kernel for";
    instantiated.snapshot = nullptr;
    return;
  }
  std::variant<KernelNode, Unsupported> changed = kernel_node_from(params, old->attributes);
  if (auto* unsupported = std::get_if<Unsupported>(&changed)) {
    instantiated.not_replayable = std::move(unsupported->why);
    instantiated.snapshot = nullptr;
    return;
  }
  // Launches replaying the old snapshot keep it; later ones get the changed copy.
  auto copy = std::make_shared<GraphSnapshot>(*instantiated.snapshot);
  copy->nodes[position->second].work = std::move(std::get<KernelNode>(changed));
  instantiated.snapshot = std::move(copy);
}

void GraphReplays::changed_unmodelled(CUgraphExec exec, std::string_view entry) {
  std::lock_guard lock(mutex_);
  const auto known = execs_.find(exec);
  if (known == execs_.end() || known->second.snapshot == nullptr) return;
  known->second.snapshot = nullptr;
  known->second.not_replayable = "the instantiated graph was changed by " + std::string(entry);
}

void GraphReplays::destroyed(CUgraphExec exec) {
  std::lock_guard lock(mutex_);
  execs_.erase(exec);
}

std::variant<std::shared_ptr<const GraphSnapshot>, Unsupported> GraphReplays::replay_of(CUgraphExec exec) const {
  std::lock_guard lock(mutex_);
  const auto known = execs_.find(exec);
  if (known == execs_.end()) return Unsupported{std::string(kNotSeen)};
  if (known->second.snapshot == nullptr) return Unsupported{known->second.not_replayable};
  return known->second.snapshot;
}

bool GraphReplays::first_fallback(CUgraphExec exec) {
  std::lock_guard lock(mutex_);
  const auto [entry, inserted] = execs_.try_emplace(exec);
  if (inserted) entry->second.not_replayable = kNotSeen;
  return !std::exchange(entry->second.fallback_told, true);
}

std::variant<CUresult, Unsupported> replay_graph(const GraphSnapshot& snapshot, CUgraphExec exec, CUstream stream,
                                                 HookedSymbol entry) {
  const ReplayDriver& driver = replay_driver();
  if (!driver.complete()) return Unsupported{"libcuda lacks a function the replay needs"};
  const CUstream run_on = stream == nullptr && entry.per_thread_stream ? CU_STREAM_PER_THREAD : stream;
  // A launch into a stream being captured adds the graph to the capture: nothing runs now. The legacy
  // stream is not asked (asking synchronises with captured blocking streams); launching into it while
  // another stream captures is an error natively too.
  if (run_on != nullptr && run_on != CU_STREAM_LEGACY) {
    CUstreamCaptureStatus capture = CU_STREAM_CAPTURE_STATUS_NONE;
    const CUresult asked = driver.stream_is_capturing(run_on, &capture);
    if (asked != CUDA_SUCCESS) return Unsupported{"cuStreamIsCapturing failed on the launch's stream"};
    if (capture != CU_STREAM_CAPTURE_STATUS_NONE) return Unsupported{"the graph was launched into a stream being captured"};
  }
  return Replay(driver, exec, stream, run_on, entry).run(snapshot);
}

}  // namespace barracuda::shim
