#include "runtime/session.h"

#include <dlfcn.h>
#include <string.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "barracuda/version.h"
#include "options/options.h"
#include "report/baseline.h"
#include "report/exit_code.h"
#include "report/json_report.h"
#include "report/process_files.h"
#include "report/report_file.h"
#include "report/sarif_renderer.h"
#include "report/suppressions.h"
#include "report/text_renderer.h"
#include "runtime/allocation_map.h"
#include "runtime/allocation_tracker.h"
#include "runtime/hardening_edits.h"
#include "runtime/driver_api.h"
#include "runtime/launch_monitor.h"
#include "runtime/module_instrumenter.h"
#include "runtime/race_allocations.h"
#include "runtime/report_builder.h"
#include "runtime/queue_sizing.h"
#include "runtime/runtime_compiled_ptx.h"
#include "runtime/sass_backend.h"
#include "runtime/termination_flush.h"
#include "runtime/trace_recorder.h"
#include "shim/shim_runtime.h"

namespace barracuda::runtime {
namespace {

// Device shared-memory checking sends only races: the redundant-barrier warning needs every access,
// and the lockstep warp model orders a warp's lanes in ways the device rule does not follow.
bool checks_shared_on_device(const options::Options& options) {
  return options.device_shared_check && !options.warn_redundant_barriers &&
         options.warp_model == WarpModel::kIndependent;
}

// As for shared memory; the device sends only global races too.
bool checks_global_on_device(const options::Options& options) {
  return options.device_global_check && !options.warn_redundant_barriers &&
         options.warp_model == WarpModel::kIndependent;
}

std::string iso_time_now() {
  std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return text;
}

// The environment variable that tells processes started under the preload which one came first: the
// top process writes its report to the path given, the others to a path with their pid in it.
constexpr const char* kTopProcessVariable = "BARRACUDA_TOP_PID";

uint32_t top_process_id() {
  if (const char* text = std::getenv(kTopProcessVariable)) {
    char* end = nullptr;
    const unsigned long pid = std::strtoul(text, &end, 10);
    if (end != text && *end == '\0') return static_cast<uint32_t>(pid);
  }
  const uint32_t self = static_cast<uint32_t>(getpid());
  setenv(kTopProcessVariable, std::to_string(self).c_str(), 1);
  return self;
}

std::vector<std::string> process_command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> args;
  for (std::string arg; std::getline(in, arg, '\0');) args.push_back(arg);
  return args;
}

// One engine worker per drain thread; the launching thread mostly waits, so it needs no core of its own.
uint32_t drain_threads(const options::Options& options) {
  if (options.drain_threads > 0) return static_cast<uint32_t>(std::min<uint64_t>(options.drain_threads, 1024));
  return std::max(std::thread::hardware_concurrency(), 2u) - 1;
}



std::filesystem::path tool_cache_dir(const options::Options& options) {
  return options.cache_dir.empty() ? default_cache_dir() : std::filesystem::path(options.cache_dir);
}

class Session final : public shim::SyncObserver {
 public:
  explicit Session(options::Options options)
      : options_(std::move(options)),
        start_time_(iso_time_now()),
        top_process_(top_process_id()),
        own_process_(getpid()),
        recorder_(options_.record.empty() ? nullptr : std::make_unique<TraceRecorder>(process_path(options_.record), options_.record_limit)),
        engine_(engine::EngineConfig{drain_threads(options_)}),
        runtime_compiled_(tool_cache_dir(options_) / "nvrtc"),
        instrumenter_(make_instrumenter_config(), sites_, [this] { return queues(); }),
        monitor_(engine_, options_.warp_model, checks_shared_on_device(options_), checks_global_on_device(options_),
                 options_.device_barrier_count, instrumenter_, streams_,
                 [this] { return queues(); },
                 [this] { grow_queues(); }, recorder_.get(),
                 LaunchFilterSettings{
                     options_.kernel_name.empty() ? std::nullopt : std::optional(std::regex(options_.kernel_name)),
                     options_.launch_skip, options_.launch_count, options_.launch_sample},
                 &race_allocations_) {
    shim::install_module_transformer(instrumenter_);
    monitor_.set_sass_backend(&sass_);
    shim::add_runtime_compilation_observer(runtime_compiled_);
    shim::add_module_observer(runtime_compiled_);
    shim::add_memory_observer(allocation_tracker_);
    shim::add_launch_observer(monitor_);
    shim::add_sync_observer(streams_);
    shim::add_sync_observer(*this);
  }

  std::filesystem::path cache_dir() const { return tool_cache_dir(options_); }

  // cudaDeviceReset or cuCtxDestroy of a context holding queues: free them while the context still
  // exists, once every launch in flight was checked; the next module load or launch creates new ones
  // in the new context.
  // A primary context's release may be its last, which destroys it: every launch in flight is checked
  // first (the queues are freed with the context; queues() notices that before the next launch).
  // A device-wide wait (cudaDeviceSynchronize, cudaFree) found every kernel issued before it ended: their
  // checks finish now, while the memory they touched is still in the allocation map (a free is
  // announced after this) and the report of a run stopped later holds them.
  void synchronized(const shim::SyncEvent& event) override {
    if (event.kind == shim::SyncKind::kHostWaitedDevice || event.kind == shim::SyncKind::kHostWaitedContext) {
      monitor_.wait_until_checked(std::chrono::minutes(10));
      return;
    }
    if (event.kind == shim::SyncKind::kContextRelease) {
      monitor_.wait_until_checked(std::chrono::seconds(60));
      monitor_.forget_events();
      return;
    }
    if (event.kind != shim::SyncKind::kContextTeardown) return;
    while (!monitor_.wait_until_checked(std::chrono::minutes(1))) {
    }
    monitor_.forget_events();
    std::vector<SharedQueues> released;
    {
      std::lock_guard lock(queues_mutex_);
      const auto torn_down = [&](const auto& entry) {
        return event.context != nullptr ? entry.first == event.context
                                        : entry.second && entry.second->device() == event.device;
      };
      for (auto entry = queues_.begin(); entry != queues_.end();) {
        if (!torn_down(*entry)) {
          ++entry;
          continue;
        }
        if (entry->second) released.push_back(std::move(entry->second));
        entry = queues_.erase(entry);
      }
    }
    if (released.empty()) return;
    instrumenter_.queues_released();
    // The monitor lets go of them too (outside queues_mutex_: it takes that lock under its own), so that
    // they are freed now, while their context exists.
    for (const SharedQueues& queues : released) monitor_.forget_queues(queues->id());
  }

  // The driver loaded libbarracuda.so as its injection library (InitializeInjection): modules without
  // PTX can now be checked through their machine code.
  void start_machine_code_checking() {
    if (options_.sass) sass_.start();
  }

  // A process that never loaded GPU code (a shell, make, a test runner) has nothing to report: it
  // writes no report and prints nothing, so it cannot overwrite what its children found.
  // At exit, or from the termination watcher with the signal that stopped the process. Once.
  void finish(std::optional<int> stopped_by = std::nullopt) {
    // A child forked without exec inherits a copy of this session (findings, a trace being written,
    // locks its parent's drain threads may have held): what it holds is the parent's to report, so it
    // writes and prints nothing (it cannot use CUDA itself).
    if (getpid() != own_process_) return;
    if (finished_.exchange(true)) return;
    if (!used_gpu_.load()) {
      if (recorder_) recorder_->finish();
      return;
    }
    // Kernels still running at exit (the application did not wait for them) are checked once they end;
    // a signal leaves less time, and the launch being checked then is cut short: what its workers still
    // hold back for their sync tickets could take minutes to apply, and the report must not wait for it.
    if (stopped_by) engine_.stop_checking();
    const auto patience = stopped_by ? std::chrono::seconds(5) : std::chrono::seconds(60);
    const bool all_checked = monitor_.poll_until_checked(patience);
    if (recorder_) recorder_->finish();
    report::Report report = build_report();
    if (!all_checked) {
      report.summary.kernels_skipped.push_back(
          {std::to_string(monitor_.in_flight()) + " launches",
           "still running or being checked when the report was written: not fully checked"});
    }
    if (stopped_by) {
      report.summary.kernels_skipped.push_back(
          {"the run", std::string("stopped by signal ") + strsignal(*stopped_by) + " (" + std::to_string(*stopped_by) +
                          "): the report holds the launches checked before it; any still running were not"});
    }
    std::ostream& log = log_stream();
    try {
      if (!options_.suppressions.empty()) {
        auto rules = report::parse_suppressions(report::read_report_file(options_.suppressions), options_.suppressions);
        report::apply_suppressions(report, rules);
      }
      if (!options_.baseline.empty()) {
        report::mark_known_races(report,
                                 report::baseline_fingerprints(report::parse_json_report(report::read_report_file(options_.baseline))));
      }
    } catch (const std::exception& e) {
      log << "barracuda: " << e.what() << "\n";
    }
    if (recorder_ && recorder_->records_left_out() != 0) {
      log << "barracuda: the trace " << process_path(options_.record) << " holds a prefix of the run: "
          << recorder_->records_left_out() << " records past record_limit were checked but not recorded\n";
    }
    {
      std::lock_guard lock(queues_mutex_);
      for (const auto& [context, queues] : queues_) {
        if (!queues || queues->shared_pool_error().empty()) continue;
        log << "barracuda: device shared-memory checking was off on GPU " << queues->device() << " ("
            << queues->shared_pool_error() << "): the host checked shared memory\n";
      }
    }
    if (options_.verbose) {
      log << "barracuda: " << report::statistics_line(*report.statistics, report.summary.events) << "\n";
    }
    const std::string report_path = process_path(options_.report);
    write_file(report_path, report::render_json(report), log);
    write_file(process_path(options_.sarif), report::render_sarif(report), log);
    if (!report_path.empty()) std::remove(report::pending_marker_path(report_path).c_str());
    report::render_text(report, report::TextOptions{.print_limit = options_.print_limit, .summary_only = options_.quiet},
                        log);
    log << std::flush;
  }

 private:
  // Option harden: the earlier report's edits, or none (saying why) when it cannot be read: the run
  // then checks the program as it is.
  std::vector<ptx::passes::HardeningEdit> hardening_edits() {
    if (options_.harden.empty()) return {};
    try {
      std::vector<ptx::passes::HardeningEdit> edits = hardening_edits_from_file(options_.harden);
      if (!options_.quiet) {
        log_stream() << "barracuda: harden: " << edits.size() << " fence and scope changes proposed by "
                     << options_.harden << std::endl;
      }
      return edits;
    } catch (const std::exception& error) {
      log_stream() << "barracuda: harden: " << error.what() << "; checking the program unhardened" << std::endl;
      return {};
    }
  }

  InstrumenterConfig make_instrumenter_config() {
    InstrumenterConfig config;
    config.device_arch = [this] { return device_arch(); };
    config.other_device_archs = [this] { return device_archs(); };
    config.cache = CubinCache(tool_cache_dir(options_));
    config.runtime_compiled = [this](const void* cubin, size_t size) { return runtime_compiled_.find(cubin, size); };
    config.verbose = options_.verbose;
    config.passes.log_read_only = options_.log_read_only;
    // A tile read is what proves the barrier before it useful (redundant-barrier warnings).
    config.passes.log_write_free_loads = options_.log_write_free_loads || options_.warn_redundant_barriers;
    // A repeated read can be what proves a barrier useful (repeated_read_filter.cpp).
    config.passes.filter_repeated_reads = options_.filter_repeated_reads && !options_.warn_redundant_barriers;
    config.passes.block_order = options_.block_order;
    config.passes.block_order_seed = options_.block_order_seed;
    config.passes.perturb_seed = options_.perturb;
    config.passes.hardening = hardening_edits();
    config.passes.log_nothing = options_.harden_only;
    config.module_seen = [this] { note_gpu_use(); };
    config.machine_code_checked = [this] { return sass_.active(); };
    config.machine_code_only = options_.sass_only;
    config.variable_located = [this](const void* owner, const std::string& name, CUdeviceptr base, size_t size) {
      allocations_.insert({base, size, report::AllocationKind::kGlobalVariable, name, owner, {}});
    };
    config.message = [this](const std::string& text) {
      if (!options_.quiet) log_stream() << "barracuda: " << text << std::endl;
    };
    if (recorder_) config.instrumented = [this](const trace::ModuleTable& table) { recorder_->module(table); };
    return config;
  }

  // This process's file for an option naming a per-process file (report, SARIF, trace).
  std::string process_path(const std::string& pattern) const {
    return report::process_file_path(pattern, static_cast<uint32_t>(getpid()), getpid() == static_cast<pid_t>(top_process_));
  }

  // The first module load: from now on this process writes a report, and until it has, a pending marker
  // says that it owes one (barracuda run reports a process that died before writing it as unchecked).
  void note_gpu_use() {
    if (used_gpu_.exchange(true)) return;
    flush_on_termination([this](int signal_number) { finish(signal_number); });
    const std::string report_path = process_path(options_.report);
    if (report_path.empty()) return;
    std::string command;
    for (const std::string& argument : process_command_line()) command += (command.empty() ? "" : " ") + argument;
    try {
      report::write_report_file(report::pending_marker_path(report_path), command);
    } catch (const report::ReportFileError& e) {
      log_stream() << "barracuda: " << e.what() << "\n";
    }
  }

  CUdevice current_device() {
    CUdevice device = 0;
    if (driver_api().ctx_get_device(&device) != CUDA_SUCCESS) device = 0;
    return device;
  }

  unsigned device_arch() {
    const DriverApi& api = driver_api();
    CUdevice device = current_device();
    int major = 0, minor = 0;
    api.device_get_attribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
    api.device_get_attribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
    char name[256] = {};
    if (api.device_get_name(name, sizeof name, device) == CUDA_SUCCESS) {
      std::lock_guard lock(mutex_);
      device_name_ = name;
    }
    return static_cast<unsigned>(major * 10 + minor);
  }

  // Every visible GPU's architecture, read once (a process's GPUs do not change).
  std::vector<unsigned> device_archs() {
    std::call_once(device_archs_read_, [this] {
      const DriverApi& api = driver_api();
      int count = 0;
      if (api.device_get_count == nullptr || api.device_get_count(&count) != CUDA_SUCCESS) return;
      for (CUdevice device = 0; device < count; ++device) {
        int major = 0, minor = 0;
        if (api.device_get_attribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device) == CUDA_SUCCESS &&
            api.device_get_attribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device) == CUDA_SUCCESS) {
          device_archs_.push_back(static_cast<unsigned>(major * 10 + minor));
        }
      }
    });
    return device_archs_;
  }

  // The current context's queue arena (each GPU's kernels log into queues of their own context), created
  // on first need (again after a context teardown); null when that failed.
  SharedQueues queues() {
    CUcontext context = nullptr;
    // No context current yet (a library loaded on a fresh thread): wait for one, do not give up.
    if (driver_api().ctx_get_current(&context) != CUDA_SUCCESS || context == nullptr) return nullptr;
    std::lock_guard lock(queues_mutex_);
    SharedQueues& queues = queues_[context];
    if (queues && !queues->alive()) {
      // cudaDeviceReset through an entry point the shim does not see: the driver freed the queues
      // with their context. Libraries outlive contexts, so their kernels reconnect to new queues.
      if (options_.verbose) log_stream() << "barracuda: the event queues' context was destroyed; recreating them\n";
      queues->forget();
      queues.reset();
      instrumenter_.queues_released();
    }
    if (queues || queues_failed_) return queues;
    const CUdevice device = current_device();
    int sms = 0;
    driver_api().device_get_attribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device);
    QueueArenaShape shape{static_cast<uint32_t>(sms > 0 ? sms : 1), 1, 0};
    const QueueSizing sizing = queue_sizing(options_.queue_bytes, shape.queue_count, free_host_bytes());
    queue_capacity_limit_ = sizing.limit;
    shape.capacity = sizing.initial;
    queues = make_queues(shape, queues_error_);
    if (!queues) queues_failed();
    return queues;
  }

  // Under queues_mutex_: queues of `shape`, or null with the reason in `error`.
  SharedQueues make_queues(const QueueArenaShape& shape, std::string& error) {
    SharedQueues queues;
    try {
      queues = std::make_shared<QueueHost>(shape);
    } catch (const std::exception& e) {
      error = e.what();
      return nullptr;
    }
    if (recorder_) recorder_->share_among_queues(shape.queue_count);
    queue_memory_.host_bytes = std::max(queue_memory_.host_bytes, arena_bytes(shape.queue_count, shape.capacity));
    queue_memory_.device_bytes = std::max(queue_memory_.device_bytes, producer_block_bytes(shape.queue_count));
    if (options_.verbose) {
      log_stream() << "barracuda: event queues: " << shape.queue_count << " x " << (shape.capacity * kSlotBytes >> 10)
                   << " KiB of page-locked host memory\n";
    }
    return queues;
  }

  void queues_failed() {
    queues_failed_ = true;
    log_stream() << "barracuda: cannot create the event queues (" << queues_error_ << "); kernels run unchecked\n";
  }

  // Once a launch found a queue at least half full (no launch is in flight): larger queues, up to the
  // limit. The old ones are freed when the last thread holding them lets go (a launching thread may
  // hold them: LaunchMonitor::before_launch takes them again, and modules are pointed at the new ones
  // before their next launch).
  // The current context's queues are the ones that ran full (the monitor asks with them current).
  void grow_queues() {
    CUcontext context = nullptr;
    if (driver_api().ctx_get_current(&context) != CUDA_SUCCESS || context == nullptr) return;
    std::lock_guard lock(queues_mutex_);
    const auto found = queues_.find(context);
    if (found == queues_.end() || !found->second || found->second->arena().shape().capacity >= queue_capacity_limit_) {
      return;
    }
    SharedQueues& queues = found->second;
    const QueueArenaShape old_shape = queues->arena().shape();
    QueueArenaShape shape = old_shape;
    shape.capacity = grown_capacity(shape.capacity, queue_capacity_limit_);
    SharedQueues old = std::move(queues);
    // Freed first where nobody else holds them, so the run's peak is not the old and new together.
    if (old.use_count() == 1) old.reset();
    std::string error;
    queues = make_queues(shape, error);
    if (queues) return;
    // Checking goes on with queues of the old size; the GPU waits more often on full ones.
    queue_capacity_limit_ = old_shape.capacity;
    if (options_.verbose) log_stream() << "barracuda: the event queues cannot grow (" << error << ")\n";
    queues = old ? std::move(old) : make_queues(old_shape, queues_error_);
    if (!queues) queues_failed();
  }

  report::Report build_report() {
    report::Report report;
    report.run.tool_version = std::string(kToolVersion);
    report.run.command_line = process_command_line();
    report.run.start_time = start_time_;
    report.run.warp_model = options_.warp_model;
    report.run.pid = static_cast<uint32_t>(getpid());
    {
      std::lock_guard lock(mutex_);
      report.run.device_name = device_name_;
    }
    const std::unique_lock results = monitor_.lock_results();
    LaunchTotals totals = monitor_.totals();
    report.summary.kernels_instrumented = instrumenter_.instrumented_kernels().size();
    report.summary.kernels_machine_code = sass_.kernels();
    std::set<std::string> library_code = instrumenter_.library_code();
    library_code.merge(sass_.library_code());
    report.summary.library_code.assign(library_code.begin(), library_code.end());
    report.summary.kernels_instrumented += report.summary.kernels_machine_code.size();
    for (const std::vector<SkippedModule>& list : {instrumenter_.skipped(), sass_.skipped()}) {
      for (const SkippedModule& skipped : list) report.summary.kernels_skipped.push_back({skipped.module, skipped.reason});
    }
    if (totals.failed_launches > 0) {
      std::string launches = std::to_string(totals.failed_launches);
      launches.append(" launches");
      report.summary.kernels_skipped.push_back({launches, "not fully checked: " + totals.last_error});
    }
    {
      // Without queues no kernel logs: a run that could not create them checked nothing from then on.
      std::lock_guard lock(queues_mutex_);
      if (queues_failed_) {
        report.summary.kernels_skipped.push_back(
            {"every launch after the failure", "the event queues could not be created: " + queues_error_});
      }
    }
    if (totals.launches_saturated > 0) {
      report.summary.kernels_skipped.push_back(
          {std::to_string(totals.launches_saturated) + " launches (latest: " + totals.saturated_kernel + ")",
           "checked in part: their threads passed more block barriers, or grid syncs, than the GPU's global "
           "check counts, and accesses past them were not all compared (docs/device_global_check.md); "
           "--no-device-global-check checks them on the host"});
    }
    if (totals.unchecked_graph_launches > 0) {
      report.summary.kernels_skipped.push_back(
          {std::to_string(totals.unchecked_graph_launches) + " CUDA graph launches",
           "their kernels ran instrumented but were not checked: the graph could not be replayed node by node (" +
               (totals.graph_not_replayed.empty() ? std::string("reason unknown") : totals.graph_not_replayed) +
               ")"});
    }
    if (const uint64_t writes = engine_.stats().writes_into_unlogged_loads; writes > 0) {
      report.summary.kernels_skipped.push_back(
          {std::to_string(writes) + " writes",
           "not fully checked: they landed in a buffer whose loads through a read-only kernel parameter were "
           "not logged (an out-of-bounds write?): races with those loads are not checked; --log-read-only "
           "logs them"});
    }
    if (const uint64_t children = engine_.stats().unchecked_child_grids; children > 0) {
      report.summary.kernels_skipped.push_back(
          {std::to_string(children) + " child grids launched from the device",
           "ran unchecked: their launch had used up its block ids (2^22 blocks of child grids)"});
    }
    for (const auto& [kind, kernels] : totals.unlogged_memory) {
      report.summary.unlogged_instructions.push_back({kind, {kernels.begin(), kernels.end()}});
    }
    report.summary.launches = totals.launches_checked + totals.launches_unchecked;
    report.summary.launches_filtered = totals.launches_filtered;
    report.summary.events = totals.records;
    {
      std::lock_guard lock(queues_mutex_);
      report.statistics = run_statistics(totals, engine_.stats(), instrumenter_.totals(), queue_memory_);
    }
    race_allocations_.note_new_races();  // a signal's flush may come between a launch and its lookup
    add_findings(report, engine_, sites_, [this](const std::string& kernel) { return monitor_.latest_launch(kernel); },
                 FindingOptions{options_.warn_redundant_barriers, options_.same_value_races,
                                options_.unfenced_acquire_races, options_.toolkit_diagnostics, options_.perturb},
                 [this](const engine::Race& race) { return race_allocations_.memory_of(race); });
    return report;
  }

  std::ostream& log_stream() {
    if (options_.log_path.empty()) return std::cerr;
    if (!log_file_.is_open()) log_file_.open(options_.log_path, std::ios::app);
    return log_file_.is_open() ? static_cast<std::ostream&>(log_file_) : std::cerr;
  }

  static void write_file(const std::string& path, const std::string& contents, std::ostream& log) {
    if (path.empty()) return;
    try {
      report::write_report_file(path, contents);
    } catch (const report::ReportFileError& e) {
      log << "barracuda: " << e.what() << "\n";
    }
  }

  options::Options options_;
  std::string start_time_;
  uint32_t top_process_;
  pid_t own_process_;  // the process that created the session
  std::atomic<bool> used_gpu_{false};
  std::atomic<bool> finished_{false};
  std::mutex mutex_;
  std::string device_name_;
  std::once_flag device_archs_read_;
  std::vector<unsigned> device_archs_;
  std::ofstream log_file_;
  std::unique_ptr<TraceRecorder> recorder_;
  SiteRegistry sites_;
  SassBackend sass_{sites_, [this](const std::string& text) {
    if (!options_.quiet) log_stream() << text << std::endl;
  }};  // before instrumenter_, which asks whether it is active
  AllocationMap allocations_;  // before instrumenter_, which adds modules' variables
  AllocationTracker allocation_tracker_{allocations_};
  engine::Engine engine_;
  RuntimeCompiledPtx runtime_compiled_;  // before instrumenter_, which asks it
  ModuleInstrumenter instrumenter_;
  StreamTracker streams_;
  RaceAllocations race_allocations_{engine_, allocations_, sites_};
  LaunchMonitor monitor_;
  std::mutex queues_mutex_;
  std::map<CUcontext, SharedQueues> queues_;  // per context: each GPU's kernels log into their own
  uint64_t queue_capacity_limit_ = 0;  // slots per queue the queues may grow to
  QueueMemory queue_memory_;
  bool queues_failed_ = false;
  std::string queues_error_;  // why, when queues_failed_
};

Session* g_session = nullptr;

void finish_session() {
  if (g_session == nullptr) return;
  try {
    g_session->finish();
  } catch (const std::exception& e) {
    std::cerr << "barracuda: could not write the report: " << e.what() << "\n";
  }
}

}  // namespace

void start_machine_code_checking() {
  if (g_session != nullptr) g_session->start_machine_code_checking();
}

void start_session_from_environment() {
  options::Options options;
  try {
    if (const char* text = std::getenv("BARRACUDA_OPTIONS")) options::parse_options(text, options);
  } catch (const std::exception& e) {
    std::cerr << "barracuda: BARRACUDA_OPTIONS: " << e.what() << "\n";
    _exit(report::kUsageErrorExitCode);
  }
  if (options.help) {
    std::cerr << options::options_help();
    _exit(0);
  }
  // The SASS back end needs the driver to load this library as its injection library too (it is the
  // same file, so the driver finds it loaded): unless the user named one of their own.
  Dl_info self{};
  if (options.sass && std::getenv("CUDA_INJECTION64_PATH") == nullptr &&
      dladdr(reinterpret_cast<void*>(&start_session_from_environment), &self) != 0 && self.dli_fname != nullptr) {
    setenv("CUDA_INJECTION64_PATH", self.dli_fname, /*overwrite=*/0);
  }
  try {
    // Lives until the process ends: the driver may call into it from any thread until then.
    g_session = new Session(std::move(options));
    std::atexit(finish_session);
    // Programs that keep NVRTC's cubins in a cache of their own load them in later runs without
    // compiling; barracuda knows the PTX only of cubins NVRTC compiled under it (runtime_compiled_ptx.h
    // keeps that PTX on disk for later runs). CuPy's cache is therefore one of barracuda's own, filled
    // only by runs under barracuda (a CUPY_CACHE_DIR of the user's own wins).
    setenv("CUPY_CACHE_DIR", (g_session->cache_dir() / "cupy").c_str(), /*overwrite=*/0);
  } catch (const std::exception& e) {
    std::cerr << "barracuda: cannot start (" << e.what() << "); the application runs unchecked\n";
  }
}

}  // namespace barracuda::runtime
