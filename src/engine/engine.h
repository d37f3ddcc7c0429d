#pragma once
// The race-detection engine: BARRACUDA's vector-clock algorithm over the GPU's event records,
// extended with independent thread scheduling, PTX scopes and strong operations.
//
// Use: begin_launch(info); each queue's drain thread calls worker(queue).consume(slots) (one thread
// per worker; a block's records must always go to the same worker); end_launch(); then read
// races(), diagnostics() and stats(), which accumulate over launches. A launch is also checked
// against the global accesses of earlier launches its LaunchOrder names as concurrent.
#include <memory>
#include <vector>

#include "engine/findings.h"
#include "engine/launch.h"
#include "engine/worker.h"

namespace barracuda::engine {

class Engine {
 public:
  explicit Engine(EngineConfig config);
  ~Engine();

  // Throws std::invalid_argument when a launch is already open or its thread ids exceed 32 bits.
  void begin_launch(LaunchInfo launch);
  Worker& worker(uint32_t index) { return *workers_.at(index); }
  uint32_t worker_count() const { return static_cast<uint32_t>(workers_.size()); }
  // Completes pending barriers (divergence), reports redundant barriers, merges the workers' findings
  // and frees the launch's shadow memory, after remembering its global accesses when a later launch
  // may overlap it.
  void end_launch();
  // The run is being stopped (a signal): from now on end_launch drops what workers still hold back for
  // their sync tickets instead of applying it, and reports no barrier left pending as divergent, so
  // that the findings so far can be read at once. Any thread; for good.
  void stop_checking() { shared_->stopping.store(true, std::memory_order_release); }

  std::vector<Race> races() const { return races_.races(); }
  uint64_t unique_races() const { return races_.size(); }
  template <typename Visit>
  void for_each_race(Visit&& visit) const {  // unordered, no copies
    races_.for_each(visit);
  }
  std::vector<Diagnostic> diagnostics() const { return diagnostics_.diagnostics(); }
  const EngineStats& stats() const { return stats_; }
  // Launches whose global accesses are kept for checking concurrent later launches.
  uint64_t remembered_launches() const { return earlier_.remembered_launches(); }

 private:
  // Applies the records workers still hold back for their sync tickets, in ticket order; tickets
  // that never arrived are reported into `diagnostics` and skipped.
  void apply_deferred(DiagnosticLog& diagnostics);
  void settle_in_parallel();
  // Names the child grid (launched from the device) of each thread of the launch's races that ran in one.
  void name_child_grids(RaceLog& races) const;

  EngineConfig config_;
  std::unique_ptr<LaunchShared> shared_;
  std::vector<std::unique_ptr<Worker>> workers_;
  // What a stopped run's launches still held back, unapplied: freed with the engine, not in end_launch,
  // which runs under the lock the report needs (a lock-heavy launch's backlog can be tens of GB, and
  // the stopped process exits soon after its report).
  std::vector<DeferredWarps> dropped_;
  EarlierLaunches earlier_;
  bool open_ = false;
  RaceLog races_;
  DiagnosticLog diagnostics_;
  EngineStats stats_;
};

}  // namespace barracuda::engine
