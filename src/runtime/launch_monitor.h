#pragma once
// The shim's LaunchObserver: runs every launch of an instrumented kernel through the engine. Before
// the launch it tags the queues with a launch id; after it, the drain threads (one per engine worker)
// drain the queues while the kernel runs, the launching thread waits until every thread of the grid
// has exited and every record is consumed, then closes the launch in the engine. Launches are thus
// checked one at a time, in the order the application issues them.
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <regex>
#include <set>
#include <vector>
#include <string>

#include "engine/engine.h"
#include "runtime/drain_pool.h"
#include "runtime/launch_filter.h"
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
  uint64_t launches_unchecked = 0;  // kernels of modules that run uninstrumented, or filtered out
  uint64_t launches_filtered = 0;   // of those: not selected by the launch filters (ran silenced)
  uint64_t records = 0;
  uint64_t slots = 0;  // queue slots the records took (kSlotBytes each)
  std::chrono::nanoseconds launch_wait{};  // launching threads blocked in after_launch (kernel time included)
  // Drain threads inside the engine and trace recorder (summed), plus closing launches in the engine.
  std::chrono::nanoseconds engine_time{};
  uint32_t drain_threads = 0;
  std::string last_error;  // a queue or engine failure: the launch's analysis is incomplete
  uint64_t failed_launches = 0;
  // Graph launches the shim could not replay node by node (replayed ones are checked kernel by kernel)
  // whose kernels logged events: drained, not checked (the records of the graph's kernel nodes cannot
  // be told apart), so the run's analysis is incomplete. `graph_not_replayed` says why for the latest.
  uint64_t unchecked_graph_launches = 0;
  std::string graph_not_replayed;
  // Memory instructions checked launches held but did not log (ldmatrix, wmma.load...): kind ->
  // the kernels.
  std::map<std::string, std::set<std::string>> unlogged_memory;
};

class LaunchMonitor final : public shim::LaunchObserver {
 public:
  // `streams` orders each checked launch with the others. `recorder` (may be null) receives every launch
  // and drained record. `queues_ran_full` is called after a launch whose drain found a queue at least
  // half full, while no launch is in flight (it may replace the queues with larger ones).
  // `filter` selects the launches checked (runtime/launch_filter.h): the others run with their
  // module's logging off, one at a time like checked launches (a kernel still running must not see
  // logging switched back on for the next checked launch).
  // `check_shared_on_device`: launches have the device check the shared memory of the kernels it can
  // (barracuda/shared_check.h); the caller has ruled out what needs every access on the host.
  LaunchMonitor(engine::Engine& engine, WarpModel warp_model, bool check_shared_on_device, ModuleInstrumenter& modules,
                StreamTracker& streams, std::function<SharedQueues()> queues, std::function<void()> queues_ran_full,
                TraceRecorder* recorder,
                LaunchFilterSettings filter);

  void before_launch(const shim::LaunchInfo& launch) override;
  void after_launch(const shim::LaunchInfo& launch, CUresult result) override;

  LaunchTotals totals() const;
  // Held while the engine merges a launch's findings into its results: whoever reads them (the report,
  // also from a signal's flush while kernels still run) holds it, and sees every launch closed before.
  std::unique_lock<std::mutex> lock_results() { return std::unique_lock(results_mutex_); }
  // Dimensions of the latest launch of `kernel` (the engine deduplicates races over launches).
  std::optional<LaunchRecord> latest_launch(const std::string& kernel) const;

 private:
  // `check`: feed the records to the engine, or only free the queues.
  DrainTotals drain_until_done(const shim::LaunchInfo& launch, LiveArena& arena, bool check);


  engine::Engine& engine_;
  WarpModel warp_model_;
  bool check_shared_on_device_;
  ModuleInstrumenter& modules_;
  StreamTracker& streams_;
  std::function<SharedQueues()> queues_;
  std::function<void()> queues_ran_full_;
  TraceRecorder* recorder_;
  LaunchFilter filter_;  // used under launch_mutex_
  // One launch is checked at a time: the engine and the queues' launch id are process-wide.
  std::mutex launch_mutex_;  // held from before_launch to after_launch of a checked launch
  std::mutex results_mutex_;  // see lock_results()
  uint16_t next_launch_id_ = 0;
  mutable std::mutex totals_mutex_;
  LaunchTotals totals_;
  std::vector<LaunchRecord> launches_;
  // Created on the first drain, when the queue count is known: min(engine workers, queues) threads.
  std::unique_ptr<DrainPool> drain_pool_;
};

}  // namespace barracuda::runtime
