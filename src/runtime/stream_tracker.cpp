#include "runtime/stream_tracker.h"

#include <atomic>

#include "runtime/driver_api.h"

namespace barracuda::runtime {
namespace {

// A small number per host thread, for telling per-thread default streams apart.
uint64_t host_thread_number() {
  static std::atomic<uint64_t> next{1};
  thread_local const uint64_t number = next.fetch_add(1, std::memory_order_relaxed);
  return number;
}

uint64_t handle_value(CUstream stream) { return reinterpret_cast<uint64_t>(stream); }

uint64_t current_context() {
  CUcontext context = nullptr;
  if (driver_api().ctx_get_current(&context) != CUDA_SUCCESS) context = nullptr;
  return reinterpret_cast<uint64_t>(context);
}

}  // namespace

StreamRef StreamTracker::stream_ref(CUstream stream, bool per_thread_entry) {
  const bool per_thread = stream == CU_STREAM_PER_THREAD || (stream == nullptr && per_thread_entry);
  if (per_thread) {
    return {handle_value(CU_STREAM_PER_THREAD), host_thread_number(), StreamKind::kBlocking, 0, current_context()};
  }
  if (stream == nullptr || stream == CU_STREAM_LEGACY) return {0, 0, StreamKind::kLegacyDefault, 0, current_context()};
  unsigned int flags = 0;
  const DriverApi& api = driver_api();
  const bool non_blocking = api.stream_get_flags != nullptr && api.stream_get_flags(stream, &flags) == CUDA_SUCCESS &&
                            (flags & CU_STREAM_NON_BLOCKING) != 0;
  CUcontext context = nullptr;
  if (api.stream_get_ctx == nullptr || api.stream_get_ctx(stream, &context) != CUDA_SUCCESS) context = nullptr;
  return {handle_value(stream), 0, non_blocking ? StreamKind::kNonBlocking : StreamKind::kBlocking, 0,
          context != nullptr ? reinterpret_cast<uint64_t>(context) : current_context()};
}

StreamRef StreamTracker::lane_ref(shim::GraphNodeRef node) {
  return {reinterpret_cast<uint64_t>(node.exec), 0, StreamKind::kGraphNode, node.node + 1, 0};
}

void StreamTracker::note_other_contexts(uint64_t context) {
  if (several_contexts_.load(std::memory_order_relaxed)) return;
  const DriverApi& api = driver_api();
  bool other = false;
  {
    std::lock_guard lock(contexts_mutex_);
    if (first_context_ == 0) first_context_ = context;
    other = context != first_context_;
  }
  std::call_once(devices_counted_, [&] {
    if (api.device_get_count == nullptr || api.device_get_count(&device_count_) != CUDA_SUCCESS) device_count_ = 1;
  });
  CUdevice current = -1;
  if (!other && device_count_ > 1 && api.ctx_get_device(&current) == CUDA_SUCCESS) {
    for (CUdevice device = 0; device < device_count_ && !other; ++device) {
      unsigned int flags = 0;
      int active = 0;
      other = device != current && api.device_primary_ctx_get_state(device, &flags, &active) == CUDA_SUCCESS && active;
    }
  }
  if (!other) return;
  several_contexts_.store(true, std::memory_order_relaxed);
  order_.several_devices();
}

StreamRef StreamTracker::recorded_into(const shim::SyncEvent& event) {
  if (event.graph_node.exec != nullptr) return lane_ref(event.graph_node);
  return stream_ref(event.stream, event.per_thread_stream);
}

engine::LaunchOrder StreamTracker::launch_order(const shim::LaunchCall& launch) {
  note_other_contexts(current_context());
  if (launch.graph_node.exec != nullptr) return order_.launch(lane_ref(launch.graph_node));
  return order_.launch(stream_ref(launch.stream, launch.entry.per_thread_stream));
}

void StreamTracker::synchronized(const shim::SyncEvent& event) {
  const auto event_id = reinterpret_cast<uint64_t>(event.event);
  const bool recorded_into_stream = (event.kind == shim::SyncKind::kEventRecorded ||
                                     event.kind == shim::SyncKind::kStreamWaitsEvent) &&
                                    event.graph_node.exec == nullptr;
  // Into a stream being captured, an event record or wait only adds an edge to the graph: it orders
  // nothing now, and asking the stream's flags (stream_ref) would invalidate the application's capture.
  // (A graph is only replayed into a stream not being captured.)
  if (recorded_into_stream && stream_is_being_captured(event.stream)) return;
  switch (event.kind) {
    case shim::SyncKind::kEventRecorded:
      order_.record_event(event_id, recorded_into(event));
      break;
    case shim::SyncKind::kStreamWaitsEvent:
      order_.wait_event(recorded_into(event), event_id);
      break;
    case shim::SyncKind::kGraphNodeFollowsStream:
      order_.follow(lane_ref(event.graph_node), stream_ref(event.stream, event.per_thread_stream));
      break;
    case shim::SyncKind::kGraphNodeFollowsNode:
      order_.follow(lane_ref(event.graph_node), lane_ref(event.earlier_node));
      break;
    case shim::SyncKind::kStreamFollowsGraphNode:
      order_.follow(stream_ref(event.stream, event.per_thread_stream), lane_ref(event.graph_node));
      break;
    case shim::SyncKind::kHostWaitedStream:
      order_.host_waits_stream(stream_ref(event.stream, event.per_thread_stream));
      break;
    case shim::SyncKind::kHostWaitedEvent:
      order_.host_waits_event(event_id);
      break;
    case shim::SyncKind::kHostWaitedContext:
      order_.host_waits_context(event.context != nullptr ? reinterpret_cast<uint64_t>(event.context)
                                                         : current_context());
      break;
    case shim::SyncKind::kPeerCopy:
      // Ordering the three contexts' earlier work before all of their later work: taken as a wait of
      // the host for them (it may assume order where the copy gives none; it never misses one).
      for (const CUcontext context : {event.context, event.source_context}) {
        if (context != nullptr) order_.host_waits_context(reinterpret_cast<uint64_t>(context));
      }
      order_.host_waits_context(current_context());
      break;
    case shim::SyncKind::kHostWaitedDevice:
    case shim::SyncKind::kContextTeardown:  // a reset waits for all of its context's work first
      order_.host_waits_context(reinterpret_cast<uint64_t>(event.context));  // by device: every context
      break;
    case shim::SyncKind::kContextRelease:  // orders nothing: the context may live on
      break;
    case shim::SyncKind::kCommunicatorCreated:
      order_.communicator(reinterpret_cast<uint64_t>(event.communicator), event.clique, event.ranks, event.rank);
      break;
    case shim::SyncKind::kCollective:
    case shim::SyncKind::kSend:
    case shim::SyncKind::kReceive: {
      if (stream_is_being_captured(event.stream)) break;
      const auto comm = reinterpret_cast<uint64_t>(event.communicator);
      const StreamRef stream = stream_ref(event.stream, false);
      if (event.kind == shim::SyncKind::kCollective) {
        order_.collective(comm, stream);
      } else {
        order_.point_to_point(comm, event.peer, event.kind == shim::SyncKind::kSend, stream);
      }
      break;
    }
  }
}

}  // namespace barracuda::runtime
