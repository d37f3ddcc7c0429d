#pragma once
// The shim's LaunchObserver: runs every launch of an instrumented kernel through the engine, while
// launches stay asynchronous and concurrent as they are natively.
//
// Before a checked launch it takes a launch slot (barracuda/queue.h) and names it, in the launch's
// own stream, in the kernel's launch-slot global; after it, it records an event there. The launch
// call returns at once. Drain threads take the records of every kernel in flight; a checker thread
// feeds the engine one launch at a time, in the order the application issued them (each launch's
// LaunchOrder says which earlier ones it may overlap), and closes a launch once its event completed
// and every record it logged was consumed. The application waits for the checker only when every
// launch slot is taken, or to relaunch a kernel still running in another stream.
//
// Several GPUs: each context has queues of its own, each drained by a pool of its own; the engine
// still checks one launch at a time, so only the pool of the launch being checked feeds the engine's
// workers while the others hold their records back.
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "engine/engine.h"
#include "runtime/drain_pool.h"
#include "runtime/launch_filter.h"
#include "runtime/module_instrumenter.h"
#include "runtime/queue_host.h"
#include "runtime/stream_tracker.h"
#include "runtime/trace_recorder.h"
#include "shim/launch_observer.h"

namespace barracuda::runtime {

class RaceAllocations;
class SassBackend;
struct LaunchArguments;

struct LaunchRecord {  // what the report needs to turn engine coordinates into 3-D ones
  std::string kernel;
  engine::Dim3 grid;
  engine::Dim3 block;
};

struct LaunchTotals {
  uint64_t launches_checked = 0;
  uint64_t launches_unchecked = 0;  // kernels of modules that run uninstrumented, or filtered out
  uint64_t launches_filtered = 0;   // of those: not selected by the launch filters
  uint64_t records = 0;
  uint64_t slots = 0;  // queue slots the records took (kSlotBytes each)
  // Wall time during which some checked launch was in flight (issued, not checked yet).
  std::chrono::nanoseconds in_flight_time{};
  // Drain threads inside the engine and trace recorder (summed), plus closing launches in the engine.
  std::chrono::nanoseconds engine_time{};
  uint32_t drain_threads = 0;
  std::string last_error;  // a queue or engine failure: the launch's analysis is incomplete
  uint64_t failed_launches = 0;
  // Graph launches the shim could not replay node by node (replayed ones are checked kernel by kernel):
  // their kernels log nothing, so the run's analysis is incomplete. `graph_not_replayed` says why for
  // the latest.
  uint64_t unchecked_graph_launches = 0;
  std::string graph_not_replayed;
  // Launches whose global memory the device checked (barracuda/global_check.h), and why the latest
  // launch of a kernel it could check was checked on the host instead.
  uint64_t launches_global_on_device = 0;
  std::string global_declined;
  // Of those, launches whose threads passed more block barriers or grid syncs than the device's stamps
  // count (GlobalCheckLaunch::saturated): pairs past them were not compared. The latest one's kernel.
  uint64_t launches_saturated = 0;
  std::string saturated_kernel;
  // Memory instructions checked launches held but did not log (ldmatrix, wmma.load...): kind ->
  // the kernels.
  std::map<std::string, std::set<std::string>> unlogged_memory;
};

class LaunchMonitor final : public shim::LaunchObserver {
 public:
  // `streams` orders each checked launch with the others. `recorder` (may be null) receives every launch
  // and drained record. `queues_ran_full` is called before a launch, while no launch is in flight,
  // once a drain found a queue at least half full (it may replace the queues with larger ones).
  // `filter` selects the launches checked (runtime/launch_filter.h): the others run with their kernel's
  // launch-slot global naming no launch, so they log nothing.
  // `check_shared_on_device`: launches have the device check the shared memory of the kernels it can
  // (barracuda/shared_check.h); the caller has ruled out what needs every access on the host.
  // `check_global_on_device`: launches nothing can run beside have the device check the global memory of
  // the kernels it can (barracuda/global_check.h) in the allocations their arguments point into.
  // `allocations` (may be null) hears each launch's arguments when it is issued, and each closed launch.
  LaunchMonitor(engine::Engine& engine, WarpModel warp_model, bool check_shared_on_device,
                bool check_global_on_device, bool count_barriers_on_device, ModuleInstrumenter& modules,
                StreamTracker& streams, std::function<SharedQueues()> queues, std::function<void()> queues_ran_full,
                TraceRecorder* recorder, LaunchFilterSettings filter, RaceAllocations* allocations);
  ~LaunchMonitor() override;

  void before_launch(const shim::LaunchCall& launch) override;
  void after_launch(const shim::LaunchCall& launch, CUresult result) override;

  // Waits until every launch issued before the call was checked (its kernel ended, its records
  // consumed), for at most `limit`; false when some are still in flight.
  bool wait_until_checked(std::chrono::milliseconds limit);
  // The same without the monitor's lock, for the report of a run being stopped: an application thread
  // may hold that lock while it waits for the GPU (a launch's set-up), for as long as a running kernel
  // takes.
  bool poll_until_checked(std::chrono::milliseconds limit) const;
  // Launches issued but not checked yet (without the monitor's lock).
  uint64_t in_flight() const;
  // A context is being destroyed (cuCtxDestroy, cudaDeviceReset) or may be (the release of a primary
  // context): the spare events made in it go with it. A new primary context may get the old one's
  // handle, so they are forgotten now, not when a launch names another context.
  void forget_events();
  // The queues of id `queues` (QueueHost::id) are being released with their context, nothing in flight
  // logs into them: their drain threads stop and the monitor lets go of them.
  void forget_queues(uint64_t queues);

  // Kernels of modules without PTX are checked through `sass` once it is active (runtime/sass_backend.h).
  void set_sass_backend(SassBackend* sass) { sass_ = sass; }

  LaunchTotals totals() const;
  // Held while the engine merges a launch's findings into its results: whoever reads them (the report,
  // also from a signal's flush while kernels still run) holds it, and sees every launch closed before.
  std::unique_lock<std::mutex> lock_results() { return std::unique_lock(results_mutex_); }
  // Dimensions of the latest launch of `kernel` (the engine deduplicates races over launches).
  std::optional<LaunchRecord> latest_launch(const std::string& kernel) const;

 private:
  struct Flight;

  // The checker thread: one launch after the other, in issue order.
  void check_launches();
  // Feeds `flight` to the engine until its kernel ended and its records are consumed, then closes it.
  // False when the monitor is stopping.
  bool check(Flight& flight);
  // Marks the launches whose events completed as ended and frees their slots (under state_mutex_).
  void note_ended_kernels();
  // A launch whose global memory the device checked has ended: reads back whether it was saturated,
  // before its slot is taken again.
  void note_saturation(const Flight& flight);
  // Under state_mutex_: whether `flight` may be issued now (`checked`: it takes a launch slot).
  bool may_issue(const Flight& flight, bool checked) const;
  // Holding `lock` on state_mutex_: returns once may_issue(flight, checked).
  void wait_to_issue(std::unique_lock<std::mutex>& lock, const Flight& flight, bool checked);
  // The queues of one context as the monitor drains them.
  struct Drain {
    SharedQueues queues;
    std::unique_ptr<DrainPool> pool;
    uint64_t in_flight = 0;             // launches in in_flight_ that log into them
    // The latest launch the device checked shared memory in, until it was checked.
    std::weak_ptr<Flight> pool_user;
    bool grow = false;                  // a drain found a queue half full
    bool restore = false;               // a stray write damaged the queues' constant fields
    bool grid_table_dirty = false;      // grids registered since the table was last emptied
  };

  // Under state_mutex_, no launch in flight logging into `queues`: grows them if asked, puts them back
  // together if damaged, empties the grid table. Returns the queues to log into (null: none).
  SharedQueues between_launches(SharedQueues queues);
  // Under state_mutex_: the drain of `queues`, with drain threads started on first need. Drains of
  // queues nobody else holds any more, with nothing in flight, are stopped.
  Drain& drain_of(const SharedQueues& queues);
  // Under state_mutex_: slots held back by every drain.
  uint64_t held_back_slots() const;
  CUevent take_event(uint64_t context_id);  // under state_mutex_; 0: an id unknown, a new event
  // The allocations whose loads through read-only parameters `launch` may leave unlogged as far as its
  // arguments tell (whether another launch can run beside it is decided later); all empty where not.
  QueueHost::ReadOnlyRanges read_only_ranges(const shim::LaunchCall& launch, const LaunchArguments& arguments) const;
  // What the device needs to check `launch`'s global memory, if its kernel is one it can check (whether
  // another launch can run beside it is decided later); nullopt where not.
  std::optional<GlobalShadow::Request> global_request(const shim::LaunchCall& launch,
                                                      const LaunchArguments& arguments) const;
  void count_unchecked(bool filtered = false);
  void note_failure(const std::string& kernel, const std::string& error);

  engine::Engine& engine_;
  WarpModel warp_model_;
  bool check_shared_on_device_;
  bool check_global_on_device_;
  // Launches checked there count their block barriers there too (kLaunchCountsBarriers).
  bool count_barriers_on_device_;
  ModuleInstrumenter& modules_;
  StreamTracker& streams_;
  std::function<SharedQueues()> queues_;
  std::function<void()> queues_ran_full_;
  TraceRecorder* recorder_;
  RaceAllocations* allocations_;
  SassBackend* sass_ = nullptr;

  mutable std::mutex state_mutex_;  // guards everything down to stopping_
  std::condition_variable state_changed_;  // a launch issued, launched, ended or checked
  LaunchFilter filter_;
  std::deque<std::shared_ptr<Flight>> in_flight_;  // issued, not checked yet, in issue order
  std::array<std::shared_ptr<Flight>, kLaunchSlots> slot_owner_;  // launches whose kernel may still run
  uint16_t next_launch_id_ = 0;
  // Written under state_mutex_, read without it too (poll_until_checked, in_flight).
  std::atomic<uint64_t> launches_issued_{0};  // pushed into in_flight_
  std::atomic<uint64_t> launches_done_{0};    // popped from it
  std::chrono::steady_clock::time_point in_flight_since_;  // when in_flight_ last became non-empty
  bool exclusive_ = false;           // a graph launch not replayed is running: nothing else is issued
  std::map<uint64_t, Drain> drains_;  // by QueueHost::id
  // By the id (cuCtxGetId) of the context they were made in: after a cudaDeviceReset the new primary
  // context may get the old one's handle, and an event of the destroyed one crashes the driver.
  std::map<uint64_t, std::vector<CUevent>> spare_events_;
  bool stopping_ = false;
  // Whether the engine checks the drain threads' current launch (it may have refused to begin it).
  std::atomic<bool> current_checked_{false};

  std::mutex results_mutex_;  // see lock_results()
  mutable std::mutex totals_mutex_;
  LaunchTotals totals_;
  std::vector<LaunchRecord> launches_;
  std::once_flag exit_handler_registered_;
  std::thread checker_;  // last: it starts once everything above is constructed
};

}  // namespace barracuda::runtime
