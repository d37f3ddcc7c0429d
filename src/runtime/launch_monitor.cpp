#include "runtime/launch_monitor.h"

#include <algorithm>
#include <thread>

#include "runtime/driver_api.h"

namespace barracuda::runtime {
namespace {

// What this thread's current launch is (before_launch and after_launch of one launch run on the
// launching thread, with the launch mutex held in between for instrumented kernels).
enum class LaunchMode { kNone, kCheck, kDrainOnly, kSilenced };
thread_local LaunchMode this_thread_launch = LaunchMode::kNone;

engine::Dim3 to_engine(shim::Dim3 d) { return {d.x, d.y, d.z}; }

// The stream whose completion means the kernel finished: the "_ptsz" entry points read stream 0 as the
// calling thread's default stream.
CUstream completion_stream(const shim::LaunchInfo& launch) {
  if (launch.stream == nullptr && launch.entry.per_thread_stream) return CU_STREAM_PER_THREAD;
  return launch.stream;
}

// A launch into a stream being captured only adds a node to a graph: nothing runs now.
bool being_captured(const shim::LaunchInfo& launch) { return stream_is_being_captured(completion_stream(launch)); }

}  // namespace

LaunchMonitor::LaunchMonitor(engine::Engine& engine, WarpModel warp_model, bool check_shared_on_device,
                             ModuleInstrumenter& modules,
                             StreamTracker& streams, std::function<SharedQueues()> queues,
                             std::function<void()> queues_ran_full, TraceRecorder* recorder,
                             LaunchFilterSettings filter)
    : engine_(engine),
      warp_model_(warp_model),
      check_shared_on_device_(check_shared_on_device),
      modules_(modules),
      streams_(streams),
      queues_(std::move(queues)),
      queues_ran_full_(std::move(queues_ran_full)),
      recorder_(recorder),
      filter_(std::move(filter)) {}

void LaunchMonitor::before_launch(const shim::LaunchInfo& launch) {
  // The queues first: after a device reset they are recreated here, and the module then reconnects.
  SharedQueues queues = being_captured(launch) ? nullptr : queues_();
  // The launch filters count launches in issue order, under the launch mutex; a launch they leave out
  // runs with its module silenced, holding the mutex until it has ended.
  bool filtered_out = false;
  if (queues != nullptr && !launch.graph && !filter_.checks_everything()) {
    launch_mutex_.lock();
    filtered_out = !filter_.check(std::string(launch.kernel_name));
    if (filtered_out && modules_.silence(launch.module)) {
      this_thread_launch = LaunchMode::kSilenced;
      std::lock_guard lock(totals_mutex_);
      ++totals_.launches_unchecked;
      ++totals_.launches_filtered;
      return;
    }
    launch_mutex_.unlock();
  }
  if (queues != nullptr && !launch.graph && !modules_.ready_to_log(launch.module, *queues)) queues = nullptr;
  if (queues == nullptr) {
    std::lock_guard lock(totals_mutex_);
    ++totals_.launches_unchecked;
    return;
  }
  // Ordered when the application issued it, not when another thread's launch is done being checked:
  // that thread's synchronisation in between must not order the two.
  engine::LaunchOrder order = streams_.launch_order(launch);
  launch_mutex_.lock();
  // The queues may have been replaced by larger ones at the end of the launch this one waited for.
  queues = queues_();
  if (queues == nullptr || (!launch.graph && !modules_.ready_to_log(launch.module, *queues))) {
    launch_mutex_.unlock();
    std::lock_guard lock(totals_mutex_);
    ++totals_.launches_unchecked;
    return;
  }
  const uint16_t launch_id = next_launch_id_++;
  try {
    // Drain-only launches (graphs not replayed, filtered out) are checked nowhere: no shadow work.
    queues->begin_launch(launch_id, check_shared_on_device_ && !launch.graph && !filtered_out);
  } catch (const std::exception& e) {
    launch_mutex_.unlock();
    std::lock_guard lock(totals_mutex_);
    ++totals_.launches_unchecked;
    ++totals_.failed_launches;
    totals_.last_error = std::string(launch.kernel_name) + ": " + e.what();
    return;
  }
  // A graph launch the shim could not replay node by node runs kernels not known one by one: they log if
  // their modules are instrumented and are drained (the GPU waits on full queues) but not checked. So
  // are launches the filters did not select whose module could not be silenced.
  if (launch.graph || filtered_out) {
    this_thread_launch = LaunchMode::kDrainOnly;
    std::lock_guard lock(totals_mutex_);
    ++totals_.launches_unchecked;
    return;
  }
  engine::LaunchInfo info;
  info.launch_id = launch_id;
  info.kernel = std::string(launch.kernel_name);
  info.grid = to_engine(launch.grid);
  info.block = to_engine(launch.block);
  info.shared_bytes = launch.shared_mem_bytes;
  info.warp_model = warp_model_;
  info.order = std::move(order);
  const std::map<std::string, uint64_t> unlogged = modules_.unlogged_memory(launch.module, launch.kernel_name);
  info.unlogged_accesses = !unlogged.empty();
  try {
    engine_.begin_launch(info);
  } catch (const std::exception& e) {
    launch_mutex_.unlock();
    std::lock_guard lock(totals_mutex_);
    ++totals_.launches_unchecked;
    ++totals_.failed_launches;
    totals_.last_error = info.kernel + ": " + e.what();
    return;
  }
  if (recorder_) {
    recorder_->launch({info.launch_id, info.kernel, {info.grid.x, info.grid.y, info.grid.z},
                       {info.block.x, info.block.y, info.block.z}, info.shared_bytes,
                       reinterpret_cast<uint64_t>(launch.stream), queues->arena().shape().queue_count});
  }
  this_thread_launch = LaunchMode::kCheck;
  std::lock_guard lock(totals_mutex_);
  launches_.push_back({info.kernel, info.grid, info.block});
  for (const auto& [kind, instructions] : unlogged) totals_.unlogged_memory[kind].insert(info.kernel);
}

void LaunchMonitor::after_launch(const shim::LaunchInfo& launch, CUresult result) {
  const LaunchMode mode = this_thread_launch;
  if (mode == LaunchMode::kNone) return;
  this_thread_launch = LaunchMode::kNone;
  std::unique_lock lock(launch_mutex_, std::adopt_lock);
  if (mode == LaunchMode::kSilenced) {
    // The next checked launch switches logging back on: this kernel must have ended by then.
    const DriverApi& api = driver_api();
    const CUstream stream = completion_stream(launch);
    while (result == CUDA_SUCCESS && api.stream_query(stream) == CUDA_ERROR_NOT_READY) {
      std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
    return;
  }
  const bool check = mode == LaunchMode::kCheck;
  const auto start = std::chrono::steady_clock::now();
  DrainTotals drained;
  try {
    const SharedQueues queues = queues_();
    if (!queues) throw std::runtime_error("the event queues are gone");
    if (result == CUDA_SUCCESS) drained = drain_until_done(launch, queues->arena(), check);
    // The tool's memory lives apart from the app's (tool_device_memory.h), but a wild store can still
    // reach it: then say so rather than trust it, and put it back for the next launch.
    if (result == CUDA_SUCCESS && !drained.error) {
      if (auto damage = queues->damage()) {
        queues->restore();
        drained.error = "barracuda's own memory was overwritten while the kernel ran (" + *damage +
                        "; an out-of-bounds store?): what it logged may be incomplete";
      }
    }
  } catch (const std::exception& e) {
    drained.error = e.what();
  }
  const auto drained_at = std::chrono::steady_clock::now();
  if (check) {
    std::lock_guard results(results_mutex_);
    engine_.end_launch();
  }
  std::lock_guard totals_lock(totals_mutex_);
  totals_.records += drained.records;
  totals_.slots += drained.slots;
  totals_.engine_time += drained.sink_time + (std::chrono::steady_clock::now() - drained_at);
  totals_.launch_wait += drained_at - start;
  if (drained.error) {
    ++totals_.failed_launches;
    totals_.last_error = std::string(launch.kernel_name) + ": " + *drained.error;
  }
  if (check) ++totals_.launches_checked;
  if (launch.graph && drained.records != 0) ++totals_.unchecked_graph_launches;
  if (!launch.graph_not_replayed.empty()) totals_.graph_not_replayed = std::string(launch.graph_not_replayed);
  // No launch is in flight while this one holds the launch mutex: the only time queues can be replaced.
  if (drained.queue_ran_full && queues_ran_full_) queues_ran_full_();
}

DrainTotals LaunchMonitor::drain_until_done(const shim::LaunchInfo& launch, LiveArena& arena, bool check) {
  if (!drain_pool_) {
    drain_pool_ = std::make_unique<DrainPool>(std::min(engine_.worker_count(), arena.shape().queue_count));
    std::lock_guard lock(totals_mutex_);
    totals_.drain_threads = drain_pool_->threads();
  }
  const uint64_t threads = uint64_t{launch.grid.x} * launch.grid.y * launch.grid.z * launch.block.x *
                           launch.block.y * launch.block.z;
  const RecordSink consume = [this, check](uint32_t worker, uint32_t queue, std::span<const RecordHeader> records) {
    if (!check) return;
    if (recorder_) recorder_->slots(queue, records);
    engine_.worker(worker).consume(records);
  };
  const DriverApi& api = driver_api();
  const CUstream stream = completion_stream(launch);
  CUresult stream_status = CUDA_SUCCESS;
  DrainTotals drained = drain_pool_->drain_launch(arena, consume, [&] {
    // Every thread counted itself after publishing its last record; a graph (0 threads known) waits
    // for its stream. A query only reads the stream's state: a fault stays for the app to see.
    if (threads != 0 && arena.threads_exited() >= threads) return true;
    stream_status = api.stream_query(stream);
    return stream_status != CUDA_ERROR_NOT_READY;
  });
  if (stream_status != CUDA_SUCCESS && stream_status != CUDA_ERROR_NOT_READY && !drained.error) {
    drained.error = "the kernel ended in a fault (" + describe(stream_status) +
                    "): only what it logged before the fault was checked";
  }
  return drained;
}

LaunchTotals LaunchMonitor::totals() const {
  std::lock_guard lock(totals_mutex_);
  return totals_;
}

std::optional<LaunchRecord> LaunchMonitor::latest_launch(const std::string& kernel) const {
  std::lock_guard lock(totals_mutex_);
  for (auto it = launches_.rbegin(); it != launches_.rend(); ++it) {
    if (it->kernel == kernel) return *it;
  }
  return std::nullopt;
}

}  // namespace barracuda::runtime
