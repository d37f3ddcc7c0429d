#pragma once
// Feeds a trace's launches and slot chunks through an engine as the live drain did: a launch closes
// the one before it, a chunk goes to the worker of its queue. `barracuda replay` and the engine
// benchmark on recorded traces share it.
#include "barracuda/warp_model.h"
#include "engine/engine.h"
#include "trace/trace_items.h"

namespace barracuda::trace {

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
};

}  // namespace barracuda::trace
