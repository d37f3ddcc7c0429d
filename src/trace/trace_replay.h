#pragma once
// Feeds a trace's launches and slot chunks through an engine as the live drain did: a launch closes
// the one before it, a chunk goes to the worker of its queue. `barracuda replay` and the engine
// benchmark on recorded traces share it.
#include "barracuda/warp_model.h"
#include "engine/engine.h"
#include "trace/trace_items.h"

namespace barracuda::trace {

// Feeds a recorded trace to the engine. With one engine worker the chunks are consumed as they come,
// on the caller's thread. With several, as the drain threads of a run do: each worker's chunks of a
// launch (queue % workers) on a thread of its own, which then goes on with what it holds back
// (engine/parallel_consume.h) before the launch ends. That replays the hand-offs
// of sync-ticket turns between workers offline.
class TraceReplay {
 public:
  TraceReplay(engine::Engine& engine, WarpModel model) : engine_(engine), model_(model) {}

  void launch(const LaunchDescriptor& launch);
  // Throws TraceFormatError for slots before any launch.
  void slots(const SlotChunk& chunk);
  // Ends the open launch, if any.
  void finish();

 private:
  engine::Engine& engine_;
  WarpModel model_;
  bool open_ = false;
  uint64_t launches_ = 0;  // begun so far: the next one's LaunchSeq (reports count launches from it)
  std::vector<std::vector<RecordHeader>> pending_;  // per worker, the open launch's slots (several workers)
};

}  // namespace barracuda::trace
