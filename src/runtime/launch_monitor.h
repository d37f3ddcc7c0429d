#pragma once
// The shim's LaunchObserver: runs every launch of an instrumented kernel through the engine. Before
// the launch it tags the queues with a launch id; after it, the launching thread drains the queues
// while the kernel runs (the GPU waits when a queue is full, so draining must not wait for the kernel)
// until every thread of the grid has exited, then closes the launch in the engine. Launches are thus
// checked one at a time, in the order the application issues them.
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <regex>
#include <vector>
#include <string>

#include "engine/engine.h"
#include "runtime/module_instrumenter.h"
#include "runtime/queue_host.h"
#include "runtime/stream_tracker.h"
#include "runtime/trace_recorder.h"
#include "shim/launch_observer.h"

namespace barracuda::runtime {

struct LaunchRecord {  // what the report needs to turn engine coordinates into 3-D ones
  std::string kernel;
  engine::Dim3 grid;
  engine::Dim3 block;
};

struct LaunchTotals {
  uint64_t launches_checked = 0;
  uint64_t launches_unchecked = 0;  // kernels of modules that run uninstrumented
  uint64_t records = 0;
  std::string last_error;  // a queue or engine failure: the launch's analysis is incomplete
  uint64_t failed_launches = 0;
};

class LaunchMonitor final : public shim::LaunchObserver {
 public:
  // `streams` orders each checked launch with the others. `recorder` (may be null) receives every launch
  // and drained record.
  // `kernels` (may be empty) selects the launches checked: the others still log (their module is
  // instrumented) and are drained, but their records are dropped.
  LaunchMonitor(engine::Engine& engine, engine::WarpModel warp_model, ModuleInstrumenter& modules,
                StreamTracker& streams, std::function<QueueHost*()> queues, TraceRecorder* recorder,
                std::optional<std::regex> kernels);

  void before_launch(const shim::LaunchInfo& launch) override;
  void after_launch(const shim::LaunchInfo& launch, CUresult result) override;

  LaunchTotals totals() const;
  // Dimensions of the latest launch of `kernel` (the engine deduplicates races over launches).
  std::optional<LaunchRecord> latest_launch(const std::string& kernel) const;

 private:
  // `check`: feed the records to the engine, or only free the queues.
  void drain_until_done(const shim::LaunchInfo& launch, QueueHost& queues, bool check);

  engine::Engine& engine_;
  engine::WarpModel warp_model_;
  ModuleInstrumenter& modules_;
  StreamTracker& streams_;
  std::function<QueueHost*()> queues_;
  TraceRecorder* recorder_;
  std::optional<std::regex> kernels_;
  // One launch is checked at a time: the engine and the queues' launch id are process-wide.
  std::mutex launch_mutex_;  // held from before_launch to after_launch of a checked launch
  uint16_t next_launch_id_ = 0;
  mutable std::mutex totals_mutex_;
  LaunchTotals totals_;
  std::vector<LaunchRecord> launches_;
};

}  // namespace barracuda::runtime
