#pragma once
// What every instrumentation pass gets for one function: the editor, the runtime-call builder, the
// site table and the statistics. Each pass lives in its own file and is declared here.
#include <unordered_map>
#include <unordered_set>

#include "ptx/function_editor.h"
#include "ptx/passes/grid_syncs.h"
#include "ptx/passes/instrument.h"
#include "ptx/passes/runtime_call.h"
#include "ptx/passes/spin_reads.h"

namespace barracuda::ptx::passes {

struct PassContext {
  Function& function;
  FunctionEditor& editor;
  RuntimeCallBuilder& calls;
  SiteTable& sites;
  InstrumentStatistics& statistics;
  // Every launch that can run this function executes no fence (fence_free_functions.h): its relaxed,
  // volatile and legacy strong accesses need no sync ticket.
  bool runs_without_fences;
  // Every launch that can run this function is of a kernel whose shared memory the device checks
  // (shared_checkable_kernels.h): its shared and generic loads and stores carry kAccessDeviceShared,
  // its kernel entry and exits tell the device runtime where a block's checking starts and ends.
  bool checks_shared_on_device;
  // Every launch that can run this function is of a kernel whose global memory the device checks
  // (global_checkable_kernels.h): its plain global and generic loads and stores carry kAccessDeviceGlobal.
  bool checks_global_on_device;
  const InstrumentOptions& options;
  // The kernel parameter each global access's address derives from (address_parameters.h).
  const std::unordered_map<const Instruction*, uint32_t>& address_parameters;
  // The parameters the kernel only reads through (read_only_parameters.h): loads through them carry
  // kAccessReadOnlyParameter. Empty unless InstrumentOptions::log_read_only is off.
  const std::unordered_set<uint32_t>& read_only_parameters;
  // Shared loads no write of their barrier interval can race with (write_free_intervals.h): not logged.
  // Empty where InstrumentOptions::log_write_free_loads is on.
  const std::unordered_set<const Instruction*>& write_free_loads;
  // The function's volatile loads that decide whether their loop goes on (spin_reads.h), found on the
  // original body: the memory pass marks them kAccessSpinRead.
  const SpinReads& spin_reads;
  // Where each checked child copy (device_launch_copies.h) takes its token in its parameter buffer.
  const std::unordered_map<std::string_view, uint32_t>& child_token_offsets;
  // The registers holding the parameter buffers the CUDA device runtime handed the function for its
  // launches (device_launch_copies.h): stores through them are not the program's memory.
  const std::unordered_set<std::string_view>& parameter_buffers;
  // The module's recognised cooperative-groups grid syncs: where the device checks global memory, each
  // arrival tells the device runtime (GridSyncArrival).
  const GridSyncs& grid_syncs;
};

// Each takes the function's original instructions (iterators stay valid across insertions).
void log_memory_accesses(PassContext& context, const std::vector<StatementIterator>& instructions);
// cp.async.bulk (non-tensor): its chunks as reads and writes, then a release to its mbarrier.
void log_bulk_copies(PassContext& context, const std::vector<StatementIterator>& instructions);
void log_synchronization(PassContext& context, const std::vector<StatementIterator>& instructions);
// mbarrier arrivals before they execute, successful try_wait/test_wait after they return.
void log_mbarriers(PassContext& context, const std::vector<StatementIterator>& instructions);
// Entry goes first in the body, before any label; exits before each ret/exit of a kernel.
void log_kernel_entry(PassContext& context, const std::vector<StatementIterator>& instructions);
// Launches from the device: each child's token, and a record of each launch (device_launch_copies.h).
void log_device_launches(PassContext& context, const std::vector<StatementIterator>& instructions);
void log_kernel_exits(PassContext& context, const std::vector<StatementIterator>& instructions);
// Needs the CFG of the original body: run it before passes that split guards.
void log_branch_divergence(PassContext& context);
// Option filter_repeated_reads (repeated_read_filter.cpp): after every instruction that may
// synchronise or call, the next load is logged again.
void forget_repeated_reads_after_synchronisation(PassContext& context, const std::vector<StatementIterator>& instructions);

// The guarded instruction at `position` becomes unguarded inside a branch around it (once), so
// logging inserted before it runs only where the guard holds. Returns the instruction's position.
StatementIterator unguard(PassContext& context, StatementIterator position);

}  // namespace barracuda::ptx::passes
