#pragma once
// Instruments a PTX module for race detection: every shared/global/generic memory access, fence,
// barrier, warp sync, conditional branch (with its reconvergence point) and kernel entry/exit calls
// the device runtime (device/entry_points.cuh), which logs a record tagged with a site id.
// The instrumented module must be linked with device_runtime_ptx() (relocatable, nvJitLink).
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>
#include <cstdint>

#include "barracuda/block_order.h"
#include "ptx/module.h"
#include "ptx/passes/hardening.h"
#include "ptx/passes/site_table.h"
#include "ptx/passes/unlogged_memory.h"

namespace barracuda::ptx::passes {

struct InstrumentOptions {
  uint32_t first_site_id = 0;  // site ids of this module start here
  bool log_branches = true;    // branch/reconvergence records for the lockstep warp model
  // Also log loads through the non-coherent read-only path (ld.global.nc, ldu): off, they are not
  // logged, since a kernel may only read that way memory no one writes during its life
  // (memory_access_pass.cpp says why). On: for debugging and for differential runs.
  bool log_read_only = false;
  // A lane does not log a load that repeats the last access its function logged (same instruction,
  // same address, nothing logged since): repeated_read_filter.cpp.
  bool filter_repeated_reads = false;
  // Also log shared loads no write of their barrier interval can race with (write_free_intervals.h):
  // off, they are neither logged nor checked. On: for differential runs, and where every access is
  // needed (redundant-barrier warnings).
  bool log_write_free_loads = false;
  // The order logical blocks start in (barracuda/block_order.h; block_order.h in this folder).
  BlockOrder block_order = BlockOrder::kNatural;
  uint64_t block_order_seed = 1;
  // Delays before synchronising instructions (schedule_perturbation.h; option perturb); 0: none. The
  // PTX is the same for every other value: the host gives the loaded module the seed.
  uint64_t perturb_seed = 0;
  // Fences and scopes applied before anything else (hardening.h; option harden).
  std::vector<HardeningEdit> hardening;
  // Apply the program's own edits (hardening, block order, schedule perturbation) and log nothing: the
  // module runs unchecked (option harden_only).
  bool log_nothing = false;
};

struct InstrumentStatistics {
  uint64_t instructions = 0;     // instructions in the module before instrumentation
  uint64_t memory_accesses = 0;  // loads, stores, atomics, reductions, async copies logged
  uint64_t synchronizations = 0; // fences, barriers, warp syncs logged
  uint64_t branches = 0;         // conditional branches logged
  uint64_t reconvergences = 0;   // reconvergence points logged
  uint64_t kernel_exits = 0;     // ret/exit instructions of kernels logged
  uint64_t device_launches = 0;  // launches from the device logged (device_launch_pass.cpp)
  uint64_t kernels = 0;
  uint64_t shared_checkable_kernels = 0;  // kernels whose shared memory the device can check (shared_checkable_kernels.h)
  uint64_t global_checkable_kernels = 0;  // kernels whose global memory the device can check (global_checkable_kernels.h)
  uint64_t skipped_memory = 0;   // local/param/const accesses (cannot race) and forms not logged
  uint64_t read_only_loads = 0;  // ld.global.nc and ldu not logged (InstrumentOptions::log_read_only)
  // Loads through parameters their kernel only reads through (read_only_parameters.h), which launches
  // the host allows it for do not log.
  uint64_t read_only_parameter_loads = 0;
  // Shared loads in barrier intervals no shared write can run in (write_free_intervals.h), not logged.
  uint64_t write_free_loads = 0;
  // Logged loads that skip their record where they repeat (InstrumentOptions::filter_repeated_reads).
  uint64_t filtered_loads = 0;
  uint64_t block_index_reads = 0;  // %ctaid reads remapped by a block order other than natural
  uint64_t delay_points = 0;       // synchronising instructions given a seeded delay (option perturb)
  uint64_t hardened_instructions = 0;  // instructions given a fence after them or a wider scope (option harden)
  // Fraction of the original instructions that now log an event.
  double instrumented_fraction() const;
};

struct InstrumentResult {
  SiteTable sites;
  InstrumentStatistics statistics;
  UnloggedMemory unlogged_memory;  // per kernel: memory instructions not logged (unlogged_memory.h)
  // Per kernel: the parameters (below kReadOnlyParameterRanges) whose loads carry
  // kAccessReadOnlyParameter (read_only_parameters.h), sorted; kernels with none are absent.
  std::map<std::string, std::vector<uint32_t>> read_only_parameters;
  // The kernels whose plain global and generic loads and stores carry kAccessDeviceGlobal
  // (global_checkable_kernels.h).
  std::set<std::string> global_checkable_kernels;
  // Those of them with a recognised grid sync in their call closure (grid_syncs.h): the device's stamps
  // then count grid intervals too.
  std::set<std::string> grid_sync_kernels;
  // Why InstrumentOptions::block_order was not applied to this module (block_order.h), if it was not.
  std::optional<std::string> block_order_declined;
  // Why InstrumentOptions::perturb_seed was not applied to this module (schedule_perturbation.h).
  std::optional<std::string> perturbation_declined;
};

// Rewrites `module` in place. Functions of the runtime itself (__barracuda_*) are left alone. PTX of an
// old ISA is upgraded first (legacy_isa_upgrade.h); what cannot be throws UnsupportedPtx.
InstrumentResult instrument_module(Module& module, const InstrumentOptions& options);

}  // namespace barracuda::ptx::passes
