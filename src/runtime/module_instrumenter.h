#pragma once
// The shim's ModuleTransformer: turns each GPU module the application loads into an instrumented
// cubin (fat binary -> best PTX for the device -> instrumentation passes -> nvJitLink with the device
// runtime, cached), and points the module's `__barracuda_queues` at the event queues (after the load,
// or before its first launch where no context was current at the load).
// Modules it cannot instrument load unchanged and are recorded with the reason.
#include <cuda.h>

#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "ptx/passes/instrument.h"
#include "runtime/cubin_cache.h"
#include "runtime/queue_host.h"
#include "runtime/runtime_compiled_ptx.h"
#include "runtime/site_registry.h"
#include "shim/module_transformer.h"

namespace barracuda::runtime {

struct SkippedModule {
  std::string module;  // "module 3" or the kernels it holds
  std::string reason;
};

// What instrumenting the run's modules cost, split by where each cubin came from. A module's time runs
// from reading its fat binary to holding its cubin: a cache hit still parses and instruments its PTX,
// whose text is the cache key.
struct InstrumentationTotals {
  uint64_t compiled = 0;  // cache misses: linked by nvJitLink
  std::chrono::nanoseconds compile_time{};
  uint64_t cached = 0;  // cache hits
  std::chrono::nanoseconds cache_load_time{};
};

struct InstrumenterConfig {
  std::function<unsigned()> device_arch;  // compute capability major * 10 + minor of the current device
  // The process's other GPUs' architectures (the same numbering; may be unset): a module is compiled
  // for each, since a library loaded once is used by every context (docs/multi_gpu.md).
  std::function<std::vector<unsigned>()> other_device_archs;
  ptx::passes::InstrumentOptions passes;  // what the passes log; first_site_id is set per module
  CubinCache cache{default_cache_dir()};
  bool verbose = false;
  std::function<void(const std::string&)> message;  // progress and warnings
  std::function<void(const trace::ModuleTable&)> instrumented;  // each module's sites, once compiled
  std::function<void()> module_seen;  // before each module is instrumented (or found not instrumentable)
  // Whether the SASS back end checks modules without PTX (runtime/sass_backend.h): such a module is then
  // not listed as skipped here (the back end lists those it could not patch).
  std::function<bool()> machine_code_checked;
  bool machine_code_only = false;  // option sass_only: leave every module to the SASS back end
  // What is known of a cubin without PTX that the application compiled at run time (NVRTC, JIT links:
  // runtime_compiled_ptx.h).
  std::function<std::optional<RuntimeCompiledModule>(const void* cubin, size_t size)> runtime_compiled;
  // Each __device__ variable of an instrumented module, once its address in the current context is
  // known (when the module is first pointed at the queues there): `owner` is its CUmodule or CUlibrary.
  std::function<void(const void* owner, const std::string& name, CUdeviceptr base, size_t size)> variable_located;
};

class ModuleInstrumenter final : public shim::ModuleTransformer {
 public:
  // `queues` is called after a successful load of an instrumented module and returns the event
  // queues (allocating them on first use); null means no queues: the module's kernels
  // must then not be run instrumented, which the caller learns through is_instrumented().
  ModuleInstrumenter(InstrumenterConfig config, SiteRegistry& sites, std::function<SharedQueues()> queues);

  const void* transform(const shim::ModuleImage& image) override;
  void loaded(const shim::ModuleImage& image, const shim::LoadedHandle& handle) override;

  // Before a launch (a context is current): whether the module's kernels log into `queues` (the
  // current ones), pointing them there first if they point elsewhere (the module loaded with no context
  // current, the queues were released or replaced by larger ones). False for modules that run
  // uninstrumented.
  bool ready_to_log(shim::ModuleId module, const QueueHost& queues);
  // Before a checked launch (a context is current, the module ready to log): the device address of
  // `kernel`'s launch-slot global (barracuda/queue.h) in the current context; nullopt when it has none.
  std::optional<CUdeviceptr> launch_slot_global(shim::ModuleId module, std::string_view kernel);
  // The queues were freed with their context (device reset): every module must be pointed at the
  // next ones. (Queues replaced by larger ones need no call: ready_to_log() sees the change.)
  void queues_released();
  std::vector<SkippedModule> skipped() const;
  std::vector<std::string> instrumented_kernels() const;
  // Libraries whose modules it left alone by design (runtime/library_code.h).
  std::set<std::string> library_code() const;
  // The memory instructions of `kernel` (call closure included) that are not logged, by kind
  // (ptx/passes/unlogged_memory.h); empty for kernels with none and modules not instrumented.
  std::map<std::string, uint64_t> unlogged_memory(shim::ModuleId module, std::string_view kernel) const;
  // The parameters of `kernel` whose loads the device may leave unlogged (ptx/passes/read_only_parameters.h).
  std::vector<uint32_t> read_only_parameters(shim::ModuleId module, std::string_view kernel) const;
  // Whether the device can check `kernel`'s global memory (ptx/passes/global_checkable_kernels.h).
  bool global_checkable(shim::ModuleId module, std::string_view kernel) const;
  // Whether such a kernel has a cooperative-groups grid sync the device counts (ptx/passes/grid_syncs.h).
  bool grid_syncs(shim::ModuleId module, std::string_view kernel) const;
  // Whether `module`'s kernels may launch child grids from the device (dynamic parallelism): their
  // launches then hold the child grids' blocks too (engine::LaunchInfo::launches_child_grids).
  bool launches_from_device(shim::ModuleId module) const;
  InstrumentationTotals totals() const;

 private:
  const void* instrument(const shim::ModuleImage& image);
  void skip(const shim::ModuleImage& image, std::string reason);
  // Points the module's queue pointer at the queues of the current context; why not, on failure.
  std::optional<std::string> connect(shim::ModuleId id, const shim::LoadedHandle& handle);
  // Tells config_.variable_located where the module's variables are in the current context.
  void locate_variables(shim::ModuleId id, const shim::LoadedHandle& handle);

  InstrumenterConfig config_;
  SiteRegistry& sites_;
  std::function<SharedQueues()> queues_;
  mutable std::mutex mutex_;
  std::deque<std::vector<char>> images_;  // replacement cubins: the driver may keep pointing into them
  std::map<shim::ModuleId, shim::LoadedHandle> handles_;  // every instrumented module loaded
  // Where each module's queue pointer points in each context (a library is loaded into every context
  // that uses it, one GPU each, with globals of its own there): at the queues of this id
  // (QueueHost::id()); absent: not set yet.
  std::map<std::pair<shim::ModuleId, CUcontext>, uint64_t> pointed_at_;
  // Launch-slot globals found, by module, context and kernel.
  std::map<std::tuple<shim::ModuleId, CUcontext, std::string>, CUdeviceptr, std::less<>> launch_slot_globals_;
  std::set<shim::ModuleId> reported_;   // modules whose failure to connect is in skipped_
  std::vector<SkippedModule> skipped_;
  std::vector<std::string> kernels_;
  std::set<std::string> library_code_;
  std::map<shim::ModuleId, std::vector<std::string>> variables_;  // the .global variables each module defines
  std::map<shim::ModuleId, ptx::passes::UnloggedMemory> unlogged_;
  std::map<shim::ModuleId, std::map<std::string, std::vector<uint32_t>>> read_only_parameters_;
  std::map<shim::ModuleId, std::set<std::string, std::less<>>> global_checkable_;
  std::map<shim::ModuleId, std::set<std::string, std::less<>>> grid_sync_kernels_;
  std::set<shim::ModuleId> launches_from_device_;
  InstrumentationTotals totals_;
};

}  // namespace barracuda::runtime
