#include "ptx/passes/instrument.h"

#include <algorithm>

#include "barracuda/queue.h"

#include "ptx/passes/address_parameters.h"
#include "ptx/passes/block_order.h"
#include "ptx/passes/fence_free_functions.h"
#include "ptx/passes/global_checkable_kernels.h"
#include "ptx/passes/grid_syncs.h"
#include "ptx/passes/legacy_isa_upgrade.h"
#include "ptx/passes/device_launch_copies.h"
#include "ptx/passes/pass_context.h"
#include "ptx/passes/read_only_parameters.h"
#include "ptx/passes/schedule_perturbation.h"
#include "ptx/passes/shared_checkable_kernels.h"
#include "ptx/passes/write_free_intervals.h"

namespace barracuda::ptx::passes {

double InstrumentStatistics::instrumented_fraction() const {
  if (instructions == 0) return 0.0;
  return static_cast<double>(memory_accesses + synchronizations + branches + kernel_exits) /
         static_cast<double>(instructions);
}

StatementIterator unguard(PassContext& context, StatementIterator position) {
  if (!std::get<Instruction>(*position).guard.present()) return position;
  return context.editor.split_guard(position);
}

InstrumentResult instrument_module(Module& module, const InstrumentOptions& options) {
  // First: the runtime calls the passes insert need at least the ISA and target it sets.
  upgrade_legacy_isa(module);
  // Before the site table: an inserted fence is an instruction of the program like any other.
  const uint64_t hardened = harden_module(module, options.hardening);
  InstrumentResult result{SiteTable(module, options.first_site_id), {}, unlogged_memory_by_kernel(module)};
  result.statistics.hardened_instructions = hardened;
  // Before the other passes: they see the logical block index as the program would.
  const BlockOrderResult reordered = permute_block_order(module, options.block_order, options.block_order_seed);
  result.statistics.block_index_reads = reordered.remapped_reads;
  result.block_order_declined = reordered.declined;
  // Before the instrumentation: the runtime calls it adds are never delayed.
  const PerturbationResult perturbed = options.perturb_seed != 0 ? perturb_schedule(module) : PerturbationResult{};
  result.statistics.delay_points = perturbed.delay_points;
  result.perturbation_declined = perturbed.declined;
  if (options.log_nothing) {
    declare_runtime_functions(module);  // the perturbation's delays call the runtime
    return result;
  }
  const FenceFreeFunctions fence_free(module);
  const SharedCheckableKernels shared_checkable(module, options.first_site_id);
  const GlobalCheckableKernels global_checkable(module, options.first_site_id);
  const GridSyncs grid_syncs(module);
  const WriteFreeIntervals write_free_intervals(module);
  declare_runtime_functions(module);
  define_launch_slot_globals(module);
  const std::unordered_map<std::string_view, uint32_t> child_tokens = child_token_offsets(module);
  for (Function* function : module.definitions()) {
    if (function->name.starts_with("__barracuda_")) continue;
    std::vector<StatementIterator> instructions;
    for (auto it = function->body.begin(); it != function->body.end(); ++it) {
      if (std::holds_alternative<Instruction>(*it)) instructions.push_back(it);
    }
    result.statistics.instructions += instructions.size();
    // Before any pass edits the body: loops and register data-flow of the code as compiled.
    const SpinReads spin_reads(*function);
    const std::unordered_map<const Instruction*, uint32_t> parameters = address_parameters(*function);
    // The launch slot gives the device the allocations of the first kReadOnlyParameterRanges parameters.
    std::unordered_set<uint32_t> read_only;
    if (!options.log_read_only) {
      for (const uint32_t parameter : read_only_parameters(*function, parameters)) {
        if (parameter < kReadOnlyParameterRanges) read_only.insert(parameter);
      }
    }
    if (!read_only.empty()) {
      std::vector<uint32_t>& listed = result.read_only_parameters[std::string(function->name)];
      listed.assign(read_only.begin(), read_only.end());
      std::sort(listed.begin(), listed.end());
    }
    const std::unordered_set<std::string_view> buffers = parameter_buffer_registers(*function);
    const std::unordered_set<const Instruction*> write_free =
        options.log_write_free_loads ? std::unordered_set<const Instruction*>{} : write_free_intervals.loads_of(*function);
    FunctionEditor editor(module, *function);
    RuntimeCallBuilder calls(module, editor);
    if (options.filter_repeated_reads) calls.filter_repeated_reads();
    PassContext context{*function,
                        editor,
                        calls,
                        result.sites,
                        result.statistics,
                        fence_free.contains(*function),
                        shared_checkable.contains(*function),
                        global_checkable.contains(*function),
                        options,
                        parameters,
                        read_only,
                        write_free,
                        spin_reads,
                        child_tokens,
                        buffers,
                        grid_syncs};
    result.statistics.shared_checkable_kernels += function->is_entry && context.checks_shared_on_device;
    if (function->is_entry && context.checks_global_on_device) {
      ++result.statistics.global_checkable_kernels;
      result.global_checkable_kernels.emplace(function->name);
      if (global_checkable.has_grid_sync(*function)) result.grid_sync_kernels.emplace(function->name);
    }
    // Order matters: the entry record comes first, and the branch pass needs the CFG before guards
    // are split into new branches.
    log_kernel_entry(context, instructions);
    if (options.log_branches) log_branch_divergence(context);
    log_kernel_exits(context, instructions);
    log_device_launches(context, instructions);
    log_memory_accesses(context, instructions);
    log_bulk_copies(context, instructions);
    log_synchronization(context, instructions);
    log_mbarriers(context, instructions);
    forget_repeated_reads_after_synchronisation(context, instructions);
  }
  return result;
}

}  // namespace barracuda::ptx::passes
