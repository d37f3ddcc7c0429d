#pragma once
// Feeds the application's launches and synchronisation calls (CUDA handles, as the shim reports
// them) into the StreamOrder, and gives each checked launch its engine::LaunchOrder.
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
  // 0, CU_STREAM_LEGACY and CU_STREAM_PER_THREAD resolve by the entry point's flavour and the
  // calling thread; other streams by their creation flags (blocking when the driver cannot say).
  static StreamRef stream_ref(CUstream stream, bool per_thread_entry);
  // The lane of a node of a replayed graph launch.
  static StreamRef lane_ref(shim::GraphNodeRef node);
  // Where an event is recorded or waited for: the node's lane for a graph's event nodes.
  static StreamRef recorded_into(const shim::SyncEvent& event);

  StreamOrder order_;
};

}  // namespace barracuda::runtime
