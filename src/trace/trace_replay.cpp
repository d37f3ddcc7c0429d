#include "trace/trace_replay.h"

#include "engine/parallel_consume.h"
#include "trace/trace_error.h"

namespace barracuda::trace {
namespace {

engine::Dim3 to_dim3(const std::array<uint32_t, 3>& d) { return {d[0], d[1], d[2]}; }

}  // namespace

void TraceReplay::launch(const LaunchDescriptor& launch) {
  finish();
  engine::LaunchInfo info;
  info.launch_id = static_cast<uint16_t>(launch.launch_id);  // records carry the low 16 bits
  info.kernel = launch.kernel;
  info.grid = to_dim3(launch.grid);
  info.block = to_dim3(launch.block);
  info.shared_bytes = launch.dynamic_shared_bytes;
  info.launches_child_grids = launch.launches_child_grids;
  info.warp_model = model_;
  info.order.sequence = engine::LaunchSeq{++launches_};
  engine_.begin_launch(info);
  open_ = true;
}

void TraceReplay::slots(const SlotChunk& chunk) {
  if (!open_) throw TraceFormatError("slots before any launch");
  const uint32_t worker = chunk.queue_index % engine_.worker_count();
  if (engine_.worker_count() == 1) return engine_.worker(worker).consume(chunk.slots);
  pending_.resize(engine_.worker_count());
  pending_[worker].insert(pending_[worker].end(), chunk.slots.begin(), chunk.slots.end());
}

void TraceReplay::finish() {
  if (!open_) return;
  if (engine_.worker_count() > 1) engine::consume_in_parallel(engine_, pending_);
  pending_.clear();
  engine_.end_launch();
  open_ = false;
}

}  // namespace barracuda::trace
