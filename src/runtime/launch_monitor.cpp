#include "runtime/launch_monitor.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "runtime/driver_api.h"
#include "runtime/race_allocations.h"
#include "runtime/sass_backend.h"
#include "shim/termination_signals.h"

namespace barracuda::runtime {
namespace {

// Launches issued and not checked yet, at most: their ids (16 bits, wrapping) stay distinct.
constexpr size_t kMaxUnchecked = 4096;
// Held-back records (drain_pool.h) beyond which a launch waits for the checker, and for how long.
constexpr uint64_t kHeldBackBudgetSlots = (uint64_t{512} << 20) / kSlotBytes;  // 512 MiB
constexpr auto kHeldBackPatience = std::chrono::seconds(1);
// How often the checker looks at the events of running kernels: from kFirstPoll, doubling while the
// launch it waits for runs, up to kLastPoll.
constexpr auto kFirstPoll = std::chrono::microseconds(10);
constexpr auto kLastPoll = std::chrono::microseconds(500);
// How often a launch waiting for a running launch of its kernel to register asks the drain threads.
constexpr auto kFirstRecordPoll = std::chrono::microseconds(200);
// How often a thread waiting for a graph launch (or a launch without an event) asks its stream.
constexpr auto kStreamPoll = std::chrono::microseconds(20);
// How often the report of a stopped run looks whether the launches in flight were checked.
constexpr auto kReportPoll = std::chrono::milliseconds(10);

// The stream whose completion means the kernel finished: the "_ptsz" entry points read stream 0 as the
// calling thread's default stream.
CUstream completion_stream(const shim::LaunchCall& launch) {
  if (launch.stream == nullptr && launch.entry.per_thread_stream) return CU_STREAM_PER_THREAD;
  return launch.stream;
}

// A launch into a stream being captured only adds a node to a graph: nothing runs now.
bool being_captured(const shim::LaunchCall& launch) { return stream_is_being_captured(completion_stream(launch)); }

// Whether work issued into (context, stream) after earlier work there runs after it. A per-thread
// default stream is one per thread: never assumed.
bool stream_ordered(CUcontext earlier_context, CUstream earlier, CUcontext later_context, CUstream later) {
  return earlier_context == later_context && earlier == later && earlier != CU_STREAM_PER_THREAD;
}

// This thread's graph launch (not replayed), between before_launch and after_launch.
thread_local bool this_thread_runs_graph = false;

// The monitor whose launches the process waits for at exit, and the process that registered it (a child
// forked without exec inherits the registration, not the threads).
LaunchMonitor* monitor_at_exit = nullptr;
pid_t registered_by = 0;

void check_before_exit() {
  if (monitor_at_exit != nullptr && getpid() == registered_by) {
    monitor_at_exit->wait_until_checked(std::chrono::seconds(60));
  }
}

void wait_for_stream(CUstream stream) {
  const DriverApi& api = driver_api();
  while (api.stream_query(stream) == CUDA_ERROR_NOT_READY) std::this_thread::sleep_for(kStreamPoll);
}

}  // namespace

struct LaunchMonitor::Flight {
  engine::LaunchInfo info;
  uint32_t slot = 0;
  CUcontext context = nullptr;
  uint64_t context_id = 0;  // cuCtxGetId of `context`: a later context may get its handle, never its id
  CUstream stream = nullptr;  // the stream it runs in (completion_stream)
  uint64_t stream_handle = 0;  // as the application named it, for the trace
  CUdeviceptr slot_global = 0;
  SharedQueues queues;
  DrainPool* pool = nullptr;  // the drain of `queues`
  LaunchArguments arguments;
  // The allocations whose loads through read-only parameters the device may leave unlogged.
  QueueHost::ReadOnlyRanges read_only_ranges{};
  bool device_checks_shared = false;
  bool device_checks_global = false;
  bool abandoned = false;  // it could not be set up: it runs unchecked, logging nothing
  // Set by after_launch:
  bool launched = false;
  CUresult launch_result = CUDA_SUCCESS;
  CUevent done = nullptr;  // recorded after the kernel
  // Set once the kernel is known to have ended (or never ran):
  bool kernel_ended = false;
  CUresult ended_with = CUDA_SUCCESS;

  // Whether `later`, a launch of the same kernel in a stream not ordered after this one, must wait
  // before its launch-slot global may change. A checked one, which names its own slot, waits only until
  // this grid has registered with this launch's slot (its first record was drained: device/runtime.cu),
  // so that a kernel may wait for a later launch of itself, as natively; a launch left unchecked, which
  // must find the global naming no launch, waits for this kernel to end.
  bool holds_slot_global_against(const Flight& later, bool later_checked) const {
    if (slot_global != later.slot_global || kernel_ended ||
        stream_ordered(context, stream, later.context, later.stream)) {
      return false;
    }
    return !(later_checked && queues->releases_conditionally() && pool->has_records_of(info.launch_id));
  }
};

namespace {
// This thread's checked launch, between before_launch and after_launch.
thread_local std::shared_ptr<void> this_thread_flight;
}  // namespace

LaunchMonitor::LaunchMonitor(engine::Engine& engine, WarpModel warp_model, bool check_shared_on_device,
                             bool check_global_on_device, bool count_barriers_on_device,
                             ModuleInstrumenter& modules, StreamTracker& streams, std::function<SharedQueues()> queues,
                             std::function<void()> queues_ran_full, TraceRecorder* recorder,
                             LaunchFilterSettings filter, RaceAllocations* allocations)
    : engine_(engine),
      warp_model_(warp_model),
      check_shared_on_device_(check_shared_on_device),
      check_global_on_device_(check_global_on_device),
      count_barriers_on_device_(count_barriers_on_device),
      modules_(modules),
      streams_(streams),
      queues_(std::move(queues)),
      queues_ran_full_(std::move(queues_ran_full)),
      recorder_(recorder),
      allocations_(allocations),
      filter_(std::move(filter)),
      checker_([this] {
        const shim::TerminationSignalsDeferred never_here;  // the report needs this thread going
        check_launches();
      }) {}

LaunchMonitor::~LaunchMonitor() {
  {
    std::lock_guard lock(state_mutex_);
    stopping_ = true;
  }
  state_changed_.notify_all();
  checker_.join();
  drains_.clear();
}

void LaunchMonitor::count_unchecked(bool filtered) {
  std::lock_guard lock(totals_mutex_);
  ++totals_.launches_unchecked;
  if (filtered) ++totals_.launches_filtered;
}

void LaunchMonitor::note_failure(const std::string& kernel, const std::string& error) {
  std::lock_guard lock(totals_mutex_);
  ++totals_.failed_launches;
  totals_.last_error = kernel + ": " + error;
}

void LaunchMonitor::before_launch(const shim::LaunchCall& launch) {
  // The queues first: after a device reset they are recreated here, and the module then reconnects.
  SharedQueues queues = being_captured(launch) ? nullptr : queues_();
  if (queues == nullptr) return count_unchecked();
  if (launch.graph) {
    // Its kernel nodes read their launch-slot globals unseen: none may run beside a checked launch of
    // the same kernel, so the graph runs alone, and its kernels log nothing.
    std::unique_lock lock(state_mutex_);
    state_changed_.wait(lock, [this] {
      return !exclusive_ && std::all_of(slot_owner_.begin(), slot_owner_.end(), [](const auto& f) { return !f; });
    });
    exclusive_ = true;
    this_thread_runs_graph = true;
    std::lock_guard totals(totals_mutex_);
    ++totals_.launches_unchecked;
    ++totals_.unchecked_graph_launches;
    if (!launch.graph_not_replayed.empty()) totals_.graph_not_replayed = std::string(launch.graph_not_replayed);
    return;
  }
  // The kernel's launch-slot word, once its code logs into `queues`: a PTX-instrumented module's global,
  // or the SASS back end's entry for a kernel of a module it patched.
  const auto connect = [&](const QueueHost& to) -> std::optional<CUdeviceptr> {
    if (modules_.ready_to_log(launch.module, to)) return modules_.launch_slot_global(launch.module, launch.kernel_name);
    if (sass_ != nullptr) return sass_->launch_slot_word(launch.function, launch.kernel_name, to);
    return std::nullopt;
  };
  const std::optional<CUdeviceptr> slot_global = connect(*queues);
  if (!slot_global) return count_unchecked();

  auto flight = std::make_shared<Flight>();
  const DriverApi& api = driver_api();
  api.ctx_get_current(&flight->context);
  unsigned long long context_id = 0;
  if (api.ctx_get_id(flight->context, &context_id) == CUDA_SUCCESS) flight->context_id = context_id;
  CUdevice device = 0;
  if (api.ctx_get_device(&device) == CUDA_SUCCESS) flight->info.device = engine::DeviceId{static_cast<uint32_t>(device)};
  flight->stream = completion_stream(launch);
  flight->stream_handle = reinterpret_cast<uint64_t>(launch.stream);
  flight->slot_global = *slot_global;
  engine::LaunchInfo& info = flight->info;
  info.kernel = std::string(launch.kernel_name);
  info.grid = launch.grid;
  info.block = launch.block;
  info.shared_bytes = launch.shared_mem_bytes;
  info.warp_model = warp_model_;
  const std::map<std::string, uint64_t> unlogged = modules_.unlogged_memory(launch.module, launch.kernel_name);
  info.unlogged_accesses = !unlogged.empty();
  // Child grids launched from the device run beside their parent in its launch slot, with parameters
  // of their own: no device checks, no unlogged loads (the slot's ranges are the parent's).
  info.launches_child_grids = modules_.launches_from_device(launch.module);
  if (allocations_) flight->arguments = allocations_->arguments_of(launch);
  // Outside state_mutex_: the lookups take the allocation map's and the instrumenter's locks.
  const QueueHost::ReadOnlyRanges read_only =
      info.launches_child_grids ? QueueHost::ReadOnlyRanges{} : read_only_ranges(launch, flight->arguments);
  const std::optional<GlobalShadow::Request> global =
      info.launches_child_grids ? std::nullopt : global_request(launch, flight->arguments);

  std::unique_lock lock(state_mutex_);
  // The filters count launches in issue order. A launch they leave out runs with its kernel's global
  // naming no launch; it still waits for a running launch of its kernel in another stream.
  const bool selected = filter_.checks_everything() || filter_.check(info.kernel);
  if (!selected) {
    wait_to_issue(lock, *flight, false);
    return count_unchecked(true);
  }
  state_changed_.wait(lock, [this] { return !exclusive_ && in_flight_.size() < kMaxUnchecked; });
  // Records of launches queued behind the one being checked wait in host memory: while they take more
  // than a budget, the application's launches wait for the checker (as the GPU would on full queues),
  // but a second at most each, so that a kernel waiting for a later launch still gets it.
  if (held_back_slots() > kHeldBackBudgetSlots) {
    state_changed_.wait_for(lock, kHeldBackPatience, [this] {
      return exclusive_ || held_back_slots() <= kHeldBackBudgetSlots;
    });
    state_changed_.wait(lock, [this] { return !exclusive_ && in_flight_.size() < kMaxUnchecked; });
  }
  if (const auto drained = drains_.find(queues->id()); drained == drains_.end() || drained->second.in_flight == 0) {
    queues = between_launches(std::move(queues));
    if (queues == nullptr || connect(*queues) != slot_global) return count_unchecked();
  }
  Drain& drain = drain_of(queues);
  // Its place among the launches is taken now, as the application issued it: a wait for a slot or for
  // its kernel to end elsewhere must not let a synchronisation of another thread in between order it.
  info.launch_id = next_launch_id_++;
  info.order = streams_.launch_order(launch);
  // Loads through read-only parameters cannot race with another launch's accesses unless one can run
  // beside this one.
  const bool runs_alone = info.order.concurrent_with.empty() && !info.order.may_overlap_later;
  if (runs_alone) {
    flight->read_only_ranges = read_only;
    for (const auto& range : read_only) {
      if (range.first < range.second) info.unlogged_load_ranges.push_back(range);
    }
  }
  flight->queues = std::move(queues);
  flight->pool = drain.pool.get();
  flight->pool->open(info.launch_id);
  ++drain.in_flight;
  if (in_flight_.empty()) in_flight_since_ = std::chrono::steady_clock::now();
  in_flight_.push_back(flight);
  ++launches_issued_;
  wait_to_issue(lock, *flight, true);
  const auto free_slot = std::find(slot_owner_.begin(), slot_owner_.end(), nullptr);
  flight->slot = static_cast<uint32_t>(free_slot - slot_owner_.begin());
  // The shadow pool's filter is cleared in this launch's stream: after the last launch that used it.
  const std::shared_ptr<Flight> pool_user = drain.pool_user.lock();
  const bool pool_free = pool_user == nullptr || pool_user->kernel_ended ||
                         stream_ordered(pool_user->context, pool_user->stream, flight->context, flight->stream);
  // Global memory checked on the device is seen by no other launch: only where none runs beside.
  const GlobalShadow::Request* device_global = global && runs_alone ? &*global : nullptr;
  // Counted barriers reach the host as one kBarriersPassed per interval, which assumes no record of the
  // block came between them: a grid sync's arrival and spin do (ptx/passes/grid_syncs.h), and the
  // accesses the host checks need the order they give. Such launches log their barriers.
  const bool count_barriers = count_barriers_on_device_ && !(device_global && device_global->grid_syncs);
  QueueHost::LaunchSetup setup;
  try {
    setup = flight->queues->prepare_launch(flight->slot, info.launch_id, flight->stream,
                                           check_shared_on_device_ && pool_free && !info.launches_child_grids,
                                           flight->read_only_ranges, device_global, count_barriers,
                                           warp_model_ == WarpModel::kLockstep || recorder_ != nullptr,
                                           info.block_count(), info.launches_child_grids);
    flight->device_checks_shared = setup.device_checks_shared;
    flight->device_checks_global = setup.device_checks_global;
    const CUresult named = api.memset_d32_async(flight->slot_global, flight->slot, 1, flight->stream);
    if (named != CUDA_SUCCESS) throw std::runtime_error("naming the launch in its stream failed: " + describe(named));
  } catch (const std::exception& e) {
    // Its kernel logs nothing: the checker closes it unchecked.
    flight->abandoned = true;
    flight->launched = true;
    flight->kernel_ended = true;
    state_changed_.notify_all();
    return note_failure(info.kernel, e.what());
  }
  *free_slot = flight;
  if (flight->device_checks_shared) drain.pool_user = flight;
  drain.grid_table_dirty = true;
  {
    std::lock_guard totals(totals_mutex_);
    if (setup.device_checks_global) {
      ++totals_.launches_global_on_device;
    } else if (global) {
      totals_.global_declined =
          info.kernel + ": " + (device_global ? setup.global_declined : "another launch may run beside it");
    }
    launches_.push_back({info.kernel, info.grid, info.block});
    for (const auto& [kind, instructions] : unlogged) totals_.unlogged_memory[kind].insert(info.kernel);
  }
  this_thread_flight = flight;
  state_changed_.notify_all();
  // The CUDA runtime tears its contexts down in an exit handler it registered when it started, and with
  // them the queues: launches still in flight at exit must be checked before. Exit handlers run last
  // registered first, so this one, registered after the runtime's, runs before it.
  std::call_once(exit_handler_registered_, [this] {
    monitor_at_exit = this;
    registered_by = getpid();
    std::atexit(check_before_exit);
  });
}

bool LaunchMonitor::may_issue(const Flight& flight, bool checked) const {
  if (exclusive_) return false;
  for (const auto& owner : slot_owner_) {
    if (owner && owner->holds_slot_global_against(flight, checked)) return false;
  }
  return !checked || std::any_of(slot_owner_.begin(), slot_owner_.end(), [](const auto& owner) { return !owner; });
}

void LaunchMonitor::wait_to_issue(std::unique_lock<std::mutex>& lock, const Flight& flight, bool checked) {
  // Polled as well: nothing signals that a drain thread saw a running launch's first record.
  while (!may_issue(flight, checked)) state_changed_.wait_for(lock, kFirstRecordPoll);
}

SharedQueues LaunchMonitor::between_launches(SharedQueues queues) {
  const auto drained = drains_.find(queues->id());
  if (drained == drains_.end()) return queues;  // new: nothing to put right
  Drain& drain = drained->second;
  try {
    if (std::exchange(drain.grow, false)) {
      if (queues_ran_full_) queues_ran_full_();  // grows the current context's queues: these
      queues = queues_();
      if (queues == nullptr) return nullptr;
    }
    if (queues == drain.queues) {
      if (drain.restore) queues->restore();
      if (drain.grid_table_dirty) queues->clear_grid_table();
      queues->release_retired_global_shadow();
    }
  } catch (const std::exception& e) {
    note_failure("the event queues", e.what());
  }
  drain.restore = false;
  drain.grid_table_dirty = false;
  return queues;
}

LaunchMonitor::Drain& LaunchMonitor::drain_of(const SharedQueues& queues) {
  // Queues replaced by larger ones, or released with their context: their threads stop.
  std::erase_if(drains_, [&](const auto& entry) {
    const Drain& drain = entry.second;
    return drain.queues != queues && drain.in_flight == 0 && drain.queues.use_count() == 1;
  });
  Drain& drain = drains_[queues->id()];
  if (!drain.pool) {
    drain.queues = queues;
    const RecordSink consume = [this](uint32_t worker, uint32_t queue, std::span<const RecordHeader> records) {
      if (!current_checked_.load(std::memory_order_acquire)) return;
      if (recorder_) recorder_->slots(queue, records);
      engine_.worker(worker).consume(records);
    };
    const IdleSink catch_up = [this](uint32_t worker) {
      if (!current_checked_.load(std::memory_order_acquire)) return IdleWork::kNone;
      engine::Worker& checker = engine_.worker(worker);
      if (checker.catch_up()) return IdleWork::kDone;
      return checker.has_deferred() ? IdleWork::kWaiting : IdleWork::kNone;
    };
    // Every drain feeds the same workers: only the drain of the launch being checked calls them.
    drain.pool = std::make_unique<DrainPool>(
        queues->arena(), std::min(engine_.worker_count(), queues->arena().shape().queue_count), consume, catch_up);
    std::lock_guard lock(totals_mutex_);
    totals_.drain_threads = std::max(totals_.drain_threads, drain.pool->threads());
  }
  return drain;
}

uint64_t LaunchMonitor::held_back_slots() const {
  uint64_t slots = 0;
  for (const auto& [id, drain] : drains_) slots += drain.pool->held_back_slots();
  return slots;
}

void LaunchMonitor::forget_queues(uint64_t queues) {
  std::unique_ptr<DrainPool> stopped;
  {
    std::lock_guard lock(state_mutex_);
    const auto found = drains_.find(queues);
    if (found == drains_.end() || found->second.in_flight != 0) return;
    stopped = std::move(found->second.pool);
    drains_.erase(found);
  }
}

void LaunchMonitor::forget_events() {
  std::lock_guard lock(state_mutex_);
  // Dropped, not destroyed: the driver may crash destroying (or recording) a destroyed context's event.
  spare_events_.clear();
}

std::optional<GlobalShadow::Request> LaunchMonitor::global_request(const shim::LaunchCall& launch,
                                                                  const LaunchArguments& arguments) const {
  if (!check_global_on_device_ || allocations_ == nullptr || !modules_.global_checkable(launch.module, launch.kernel_name)) {
    return std::nullopt;
  }
  GlobalShadow::Request request;
  request.blocks = uint64_t{launch.grid.x} * launch.grid.y * launch.grid.z;
  request.threads_per_block = uint64_t{launch.block.x} * launch.block.y * launch.block.z;
  request.grid_syncs = modules_.grid_syncs(launch.module, launch.kernel_name);
  for (const auto& [parameter, value] : arguments.pointers) {
    const auto allocation = allocations_->argument_allocation(arguments, parameter);
    if (allocation && std::find(request.allocations.begin(), request.allocations.end(), *allocation) ==
                          request.allocations.end()) {
      request.allocations.push_back(*allocation);
    }
  }
  return request;
}

QueueHost::ReadOnlyRanges LaunchMonitor::read_only_ranges(const shim::LaunchCall& launch,
                                                          const LaunchArguments& arguments) const {
  QueueHost::ReadOnlyRanges ranges{};
  // Loads through a read-only parameter (ptx/passes/read_only_parameters.h) inside its allocation
  // cannot race with the launch's own accesses unless another argument points into it.
  if (allocations_ == nullptr || !allocations_->arguments_in_distinct_allocations(arguments)) return ranges;
  for (const uint32_t parameter : modules_.read_only_parameters(launch.module, launch.kernel_name)) {
    if (auto allocation = allocations_->argument_allocation(arguments, parameter)) ranges[parameter] = *allocation;
  }
  return ranges;
}

CUevent LaunchMonitor::take_event(uint64_t context_id) {
  CUevent event = nullptr;
  if (context_id == 0) return driver_api().event_create(&event, CU_EVENT_DISABLE_TIMING) == CUDA_SUCCESS ? event : nullptr;
  std::vector<CUevent>& spare = spare_events_[context_id];
  if (!spare.empty()) {
    event = spare.back();
    spare.pop_back();
  } else if (driver_api().event_create(&event, CU_EVENT_DISABLE_TIMING) != CUDA_SUCCESS) {
    event = nullptr;
  }
  return event;
}

void LaunchMonitor::after_launch(const shim::LaunchCall& launch, CUresult result) {
  const DriverApi& api = driver_api();
  if (std::exchange(this_thread_runs_graph, false)) {
    if (result == CUDA_SUCCESS) wait_for_stream(completion_stream(launch));
    std::lock_guard lock(state_mutex_);
    exclusive_ = false;
    state_changed_.notify_all();
    return;
  }
  const auto flight = std::static_pointer_cast<Flight>(std::exchange(this_thread_flight, nullptr));
  if (!flight) return;
  // Stream-ordered after the kernel: a later launch of it that is not checked logs nothing.
  const CUresult reset =
      flight->queues->release_launch_slot(flight->slot_global, flight->slot, flight->context, flight->stream);
  CUevent done = nullptr;
  if (result == CUDA_SUCCESS) {
    {
      std::lock_guard lock(state_mutex_);
      done = take_event(flight->context_id);
    }
    if (done != nullptr && api.event_record(done, flight->stream) != CUDA_SUCCESS) {
      api.event_destroy(done);
      done = nullptr;
    }
    if (done == nullptr) wait_for_stream(flight->stream);  // no event: the launch ends before the call returns
  }
  std::lock_guard lock(state_mutex_);
  flight->launched = true;
  flight->launch_result = result;
  flight->done = done;
  if (done == nullptr) {
    flight->kernel_ended = true;
    if (slot_owner_[flight->slot] == flight) slot_owner_[flight->slot].reset();
  }
  if (reset != CUDA_SUCCESS) note_failure(flight->info.kernel, "resetting its launch slot failed: " + describe(reset));
  state_changed_.notify_all();
}

void LaunchMonitor::note_ended_kernels() {
  const DriverApi& api = driver_api();
  bool ended = false;
  for (std::shared_ptr<Flight>& owner : slot_owner_) {
    if (!owner || !owner->launched || owner->done == nullptr) continue;
    api.ctx_set_current(owner->context);
    const CUresult status = api.event_query(owner->done);
    if (status == CUDA_ERROR_NOT_READY) continue;
    owner->kernel_ended = true;
    owner->ended_with = status;
    if (owner->device_checks_global) note_saturation(*owner);
    // Unless its context went meanwhile (forget_events): then the event went with it.
    if (const auto spare = spare_events_.find(owner->context_id); spare != spare_events_.end()) {
      spare->second.push_back(owner->done);
    }
    owner->done = nullptr;
    owner.reset();
    ended = true;
  }
  if (ended) state_changed_.notify_all();
}

void LaunchMonitor::note_saturation(const Flight& flight) {
  bool saturated = false;
  try {
    saturated = flight.queues->global_check_saturated(flight.slot);
  } catch (const std::exception& e) {
    std::lock_guard totals(totals_mutex_);
    ++totals_.failed_launches;
    totals_.last_error = flight.info.kernel + ": " + e.what();
    return;
  }
  if (!saturated) return;
  std::lock_guard totals(totals_mutex_);
  ++totals_.launches_saturated;
  totals_.saturated_kernel = flight.info.kernel;
}

void LaunchMonitor::check_launches() {
  for (;;) {
    std::shared_ptr<Flight> head;
    {
      std::unique_lock lock(state_mutex_);
      state_changed_.wait(lock, [this] { return stopping_ || !in_flight_.empty(); });
      if (stopping_) return;
      head = in_flight_.front();
    }
    if (!check(*head)) return;
    {
      std::lock_guard lock(state_mutex_);
      in_flight_.pop_front();
      if (head->queues) {
        if (const auto drain = drains_.find(head->queues->id()); drain != drains_.end()) --drain->second.in_flight;
      }
      ++launches_done_;
      if (in_flight_.empty()) {
        std::lock_guard totals(totals_mutex_);
        totals_.in_flight_time += std::chrono::steady_clock::now() - in_flight_since_;
      }
    }
    state_changed_.notify_all();
  }
}

bool LaunchMonitor::check(Flight& flight) {
  std::optional<std::string> error;
  bool checking = !flight.abandoned;
  try {
    if (checking) engine_.begin_launch(flight.info);
  } catch (const std::exception& e) {
    checking = false;
    error = e.what();
  }
  const engine::LaunchInfo& info = flight.info;
  if (checking && recorder_) {
    recorder_->launch({info.launch_id, info.kernel, {info.grid.x, info.grid.y, info.grid.z},
                       {info.block.x, info.block.y, info.block.z}, info.shared_bytes, flight.stream_handle,
                       flight.queues->arena().shape().queue_count, info.launches_child_grids});
  }
  current_checked_.store(checking, std::memory_order_release);
  flight.pool->make_current(info.launch_id);
  // Until the kernel has ended; the events of the other running kernels free their slots meanwhile.
  for (auto poll = kFirstPoll;; poll = std::min(2 * poll, kLastPoll)) {
    {
      std::lock_guard lock(state_mutex_);
      if (stopping_) return false;
      note_ended_kernels();
      if (flight.kernel_ended) break;
    }
    std::this_thread::sleep_for(poll);
  }
  DrainTotals drained = flight.pool->close_current();
  if (flight.launch_result == CUDA_SUCCESS && flight.ended_with != CUDA_SUCCESS && !drained.error) {
    drained.error = "the kernel ended in a fault (" + describe(flight.ended_with) +
                    "): only what it logged before the fault was checked";
  }
  // The tool's memory lives apart from the app's (tool_device_memory.h), but a wild store can still
  // reach it: then say so rather than trust it, and put it back before the next launch.
  if (flight.launch_result == CUDA_SUCCESS && !drained.error) {
    try {
      driver_api().ctx_set_current(flight.context);
      if (auto damage = flight.queues->damage()) {
        drained.error = "barracuda's own memory was overwritten while the kernel ran (" + *damage +
                        "; an out-of-bounds store?): what it logged may be incomplete";
        std::lock_guard lock(state_mutex_);
        if (const auto drain = drains_.find(flight.queues->id()); drain != drains_.end()) drain->second.restore = true;
      }
    } catch (const std::exception& e) {
      drained.error = e.what();
    }
  }
  if (!error) error = std::move(drained.error);
  const auto closing = std::chrono::steady_clock::now();
  if (checking) {
    std::lock_guard results(results_mutex_);
    engine_.end_launch();
    // Runs on the checker thread: a failed lookup leaves the race unnamed.
    try {
      if (allocations_) allocations_->note_new_races(&flight.arguments);
    } catch (const std::exception&) {
    }
  }
  if (drained.queue_ran_full) {
    std::lock_guard lock(state_mutex_);
    if (const auto drain = drains_.find(flight.queues->id()); drain != drains_.end()) drain->second.grow = true;
  }
  std::lock_guard totals_lock(totals_mutex_);
  totals_.records += drained.records;
  totals_.slots += drained.slots;
  totals_.engine_time += drained.sink_time + (std::chrono::steady_clock::now() - closing);
  if (error) {
    ++totals_.failed_launches;
    totals_.last_error = info.kernel + ": " + *error;
  }
  if (checking) {
    ++totals_.launches_checked;
  } else {
    ++totals_.launches_unchecked;
  }
  return true;
}

bool LaunchMonitor::wait_until_checked(std::chrono::milliseconds limit) {
  std::unique_lock lock(state_mutex_);
  const uint64_t issued = launches_issued_.load(std::memory_order_relaxed);  // not those issued meanwhile
  return state_changed_.wait_for(lock, limit, [&] { return launches_done_.load(std::memory_order_relaxed) >= issued; });
}

bool LaunchMonitor::poll_until_checked(std::chrono::milliseconds limit) const {
  const uint64_t issued = launches_issued_.load(std::memory_order_acquire);
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (launches_done_.load(std::memory_order_acquire) < issued) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(kReportPoll);
  }
  return true;
}

uint64_t LaunchMonitor::in_flight() const {
  return launches_issued_.load(std::memory_order_acquire) - launches_done_.load(std::memory_order_acquire);
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
