#pragma once
#include <array>
#include <utility>
// The event queues (barracuda/queue.h) as the host holds them: the rings and read heads in
// page-locked host memory mapped into the device, so the GPU logs straight into memory the drain
// reads in place; the producer block (write heads, constants, launch slots) in device memory, so the
// GPU's per-record atomics and reads stay on the GPU (in an address range of its own, away from the
// application's buffers: runtime/tool_device_memory.h). The instrumented module reaches the producer
// block through its `__barracuda_queues` global, which point_module_at_queues() fills after each load.
// Host-to-device copies go through a private non-blocking stream: they never serialise with the
// application's streams (a copy on the legacy default stream would join, and so invalidate, a capture
// of a blocking stream).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <cuda.h>

#include "runtime/global_shadow.h"
#include "runtime/live_arena.h"
#include "runtime/tool_device_memory.h"

namespace barracuda::runtime {

class QueueHost {
 public:
  // Allocates and initialises both parts in the current context; throws std::runtime_error on failure.
  explicit QueueHost(const QueueArenaShape& shape);
  // Frees them: only while their context exists, and no kernel may be logging into them.
  ~QueueHost();
  QueueHost(const QueueHost&) = delete;
  QueueHost& operator=(const QueueHost&) = delete;

  // The producer block: what __barracuda_queues points to.
  CUdeviceptr device_address() const { return producers_->address(); }
  CUcontext context() const { return context_; }  // the context the queues were allocated in
  CUdevice device() const { return device_; }      // its device
  // Tells these queues from every other QueueHost of the process (addresses may be reused).
  uint64_t id() const { return id_; }
  // False once the driver freed the queues with their context (a reset the shim did not see: then
  // nothing may touch them); forget() makes the destructor leave them alone.
  bool alive() const;
  void forget() { forgotten_ = true; }
  LiveArena& arena() { return arena_; }

  // Before a checked launch into `stream` that takes launch slot `slot` (barracuda/queue.h; no kernel of
  // the slot's previous launch may still run): the id its records carry, a fresh sync-ticket counter
  // and exit count, and whether the device checks the shared memory of the kernels it can
  // (`check_shared_on_device`: the shadow pool is allocated at the first such launch, and its race
  // filter is cleared in `stream`, so the caller must have ordered every earlier launch that uses the
  // pool before it there). `read_only_ranges`: LaunchSlot::read_only_begin/end; any nonempty one sets
  // kLaunchSkipsReadOnlyParameterLoads. `global` (may be null): the device checks the launch's global
  // memory in these allocations, if the shadow can hold them (runtime/global_shadow.h; nothing may run
  // beside the launch). Throws std::runtime_error when a copy to the device fails.
  using ReadOnlyRanges = std::array<std::pair<uint64_t, uint64_t>, kReadOnlyParameterRanges>;
  struct LaunchSetup {
    bool device_checks_shared = false;  // else the host checks shared memory
    bool device_checks_global = false;  // in the requested allocations; the host checks the rest
    std::string global_declined;        // why not, where it was asked for
  };
  // `count_barriers`: where the device checks global memory, kLaunchCountsBarriers unless every record
  // is logged. `log_every_record`: kLaunchLogsEveryRecord. `grid_blocks`: the launch's block count (child grids
  // launched from the device take the ids after it); `launches_child_grids`: kLaunchHasChildGrids.
  LaunchSetup prepare_launch(uint32_t slot, uint16_t launch_id, CUstream stream, bool check_shared_on_device,
                             const ReadOnlyRanges& read_only_ranges, const GlobalShadow::Request* global,
                             bool count_barriers, bool log_every_record, uint32_t grid_blocks, bool launches_child_grids);
  // No launch in flight: frees the global shadow memory retired meanwhile.
  void release_retired_global_shadow() { global_shadow_.release_retired(); }
  // GlobalShadow::saturated of the launch that used `slot`.
  bool global_check_saturated(uint32_t slot) { return global_shadow_.saturated(slot); }
  // After a checked launch that took `slot`, in its stream: its kernel's `slot_global` goes back to
  // kNoLaunchSlot unless a later launch of the kernel has named its own slot there meanwhile
  // (device/launch_slot_release.cu; a plain memset where the kernel could not be loaded, or in another
  // context). Returns the driver's result.
  CUresult release_launch_slot(CUdeviceptr slot_global, uint32_t slot, CUcontext context, CUstream stream);
  // Whether release_launch_slot leaves a later launch's slot alone (else launches of one kernel must
  // not overlap).
  bool releases_conditionally() const { return release_kernel_ != nullptr; }
  // Empties the grid table (no kernel logging): entries of grids that never finished (a fault) go.
  void clear_grid_table();
  // Why the shadow pool could not be allocated (then every launch checks shared memory on the host).
  const std::string& shared_pool_error() const { return shared_pool_error_; }
  // After a launch (no kernel logging): what a stray write of the application changed in the queues'
  // constant fields (queue_arena.h), or nullopt. Throws std::runtime_error when the read-back fails.
  std::optional<std::string> damage();
  // Writes the constant fields back and restarts each queue at the host's position (no kernel logging).
  void restore();
  // Writes device_address() into a module's `__barracuda_queues` global (its device address). Throws
  // std::runtime_error when the copy fails.
  void point_module_at_queues(CUdeviceptr module_global);
  // Sets a loaded module's perturbation seed (BARRACUDA_PERTURB_SEED_SYMBOL, a .u32 at `module_global`).
  void set_perturbation_seed(CUdeviceptr module_global, uint32_t seed);

 private:
  static std::byte* allocate_host_arena(const QueueArenaShape& shape);
  // Loads device/launch_slot_release.cu in the queues' context; leaves release_kernel_ null on failure.
  void load_release_kernel();
  // The pool, allocated and zeroed at the first call; null when that failed (shared_pool_error()).
  ToolDeviceMemory* shared_pool();
  // Zeroes `bytes` at `destination` and waits; throws on failure.
  void zero_on_device(CUdeviceptr destination, size_t bytes, const char* what);
  // Copies `bytes` to `destination` and waits for the copy; throws on failure.
  void copy_to_device(CUdeviceptr destination, const void* source, size_t bytes, const char* what);

  LiveArena arena_;
  CUcontext context_ = nullptr;
  CUdevice device_ = 0;
  CUstream stream_ = nullptr;
  CUmodule release_module_ = nullptr;  // holds release_kernel_
  CUfunction release_kernel_ = nullptr;
  CUdeviceptr host_arena_ = 0;  // the host arena's device address
  std::unique_ptr<ToolDeviceMemory> producers_;
  // Device shared-memory checking's shadow pool (barracuda/shared_check_pool.h), one row per SM id
  // below shared_pool_rows_.
  std::unique_ptr<ToolDeviceMemory> shared_pool_;
  uint32_t shared_pool_rows_ = 0;
  std::string shared_pool_error_;
  GlobalShadow global_shadow_{nullptr};  // given stream_ once it exists
  bool forgotten_ = false;
  uint64_t id_;
};

// The session replaces its queues by larger ones between launches; whoever holds them keeps them.
using SharedQueues = std::shared_ptr<QueueHost>;

}  // namespace barracuda::runtime
