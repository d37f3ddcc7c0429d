#pragma once
// Feeds the application's launches and synchronisation calls (CUDA handles, as the shim reports
// them) into the StreamOrder, and gives each checked launch its engine::LaunchOrder.
#include <atomic>
#include <mutex>

#include "engine/launch.h"
#include "runtime/stream_order.h"
#include "shim/launch_observer.h"
#include "shim/sync_observer.h"

namespace barracuda::runtime {

class StreamTracker final : public shim::SyncObserver {
 public:
  // Called for each checked launch, on the launching thread, in issue order.
  engine::LaunchOrder launch_order(const shim::LaunchCall& launch);
  void synchronized(const shim::SyncEvent& event) override;

 private:
  // 0, CU_STREAM_LEGACY and CU_STREAM_PER_THREAD resolve by the entry point's flavour, the calling
  // thread and its current context; other streams by their creation flags (blocking when the driver
  // cannot say) and their context.
  static StreamRef stream_ref(CUstream stream, bool per_thread_entry);
  // At a launch in the current context: whether work of another context may run beside it (another
  // GPU's primary context is active, or launches came from another context); once so, for good.
  void note_other_contexts(uint64_t context);
  // The lane of a node of a replayed graph launch.
  static StreamRef lane_ref(shim::GraphNodeRef node);
  // Where an event is recorded or waited for: the node's lane for a graph's event nodes.
  static StreamRef recorded_into(const shim::SyncEvent& event);

  StreamOrder order_;
  std::once_flag devices_counted_;
  int device_count_ = 0;
  std::atomic<bool> several_contexts_{false};
  std::mutex contexts_mutex_;
  uint64_t first_context_ = 0;  // of the first launch
};

}  // namespace barracuda::runtime
