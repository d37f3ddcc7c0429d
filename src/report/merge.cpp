#include "report/merge.h"

#include <algorithm>

#include "report/finding_set.h"

namespace barracuda::report {
namespace {

void add_statistics(Statistics& total, const Statistics& one) {
  total.slots += one.slots;
  total.queue_host_bytes = std::max(total.queue_host_bytes, one.queue_host_bytes);
  total.queue_device_bytes = std::max(total.queue_device_bytes, one.queue_device_bytes);
  total.drain_threads = std::max(total.drain_threads, one.drain_threads);
  total.drain_wait += one.drain_wait;
  total.engine_time += one.engine_time;
  total.engine_thread_accesses += one.engine_thread_accesses;
  total.engine_repeated_reads += one.engine_repeated_reads;
  total.engine_peak_resident_blocks = std::max(total.engine_peak_resident_blocks, one.engine_peak_resident_blocks);
  total.engine_peak_held_back_records =
      std::max(total.engine_peak_held_back_records, one.engine_peak_held_back_records);
  total.engine_records_applied_at_launch_end += one.engine_records_applied_at_launch_end;
  total.launches_global_on_device += one.launches_global_on_device;
  if (!one.global_on_host_reason.empty()) total.global_on_host_reason = one.global_on_host_reason;
  total.modules_instrumented += one.modules_instrumented;
  total.cache_misses += one.cache_misses;
  total.jit_time += one.jit_time;
  total.cache_hits += one.cache_hits;
  total.cache_load_time += one.cache_load_time;
}

}  // namespace

Report merge_process_reports(const std::vector<Report>& reports, std::vector<std::string> command_line) {
  Report merged;
  merged.run.command_line = std::move(command_line);
  RaceSet races(merged.races);
  DiagnosticSet diagnostics(merged.diagnostics);
  for (const Report& report : reports) {
    if (merged.run.tool_version.empty()) merged.run.tool_version = report.run.tool_version;
    if (merged.run.device_name.empty()) merged.run.device_name = report.run.device_name;
    if (merged.run.start_time.empty() || (!report.run.start_time.empty() && report.run.start_time < merged.run.start_time)) {
      merged.run.start_time = report.run.start_time;
    }
    if (merged.processes.empty()) merged.run.warp_model = report.run.warp_model;
    merged.processes.push_back({report.run.pid, report.run.command_line});

    const Summary& summary = report.summary;
    merged.summary.kernels_instrumented += summary.kernels_instrumented;
    for (const std::string& kernel : summary.kernels_machine_code) {
      if (std::find(merged.summary.kernels_machine_code.begin(), merged.summary.kernels_machine_code.end(), kernel) ==
          merged.summary.kernels_machine_code.end()) {
        merged.summary.kernels_machine_code.push_back(kernel);
      }
    }
    for (const std::string& library : summary.library_code) {
      if (std::find(merged.summary.library_code.begin(), merged.summary.library_code.end(), library) ==
          merged.summary.library_code.end()) {
        merged.summary.library_code.push_back(library);
      }
    }
    for (const SkippedKernel& skipped : summary.kernels_skipped) {
      merged.summary.kernels_skipped.push_back(
          {skipped.kernel + " (process " + std::to_string(report.run.pid) + ")", skipped.reason});
    }
    for (const UnloggedInstructions& unlogged : summary.unlogged_instructions) {
      auto same_kind = std::find_if(merged.summary.unlogged_instructions.begin(), merged.summary.unlogged_instructions.end(),
                                    [&](const UnloggedInstructions& known) { return known.kind == unlogged.kind; });
      if (same_kind == merged.summary.unlogged_instructions.end()) {
        merged.summary.unlogged_instructions.push_back(unlogged);
        continue;
      }
      for (const std::string& kernel : unlogged.kernels) {
        if (std::find(same_kind->kernels.begin(), same_kind->kernels.end(), kernel) == same_kind->kernels.end()) {
          same_kind->kernels.push_back(kernel);
        }
      }
    }
    merged.summary.launches += summary.launches;
    merged.summary.launches_filtered += summary.launches_filtered;
    merged.summary.events += summary.events;
    merged.summary.dropped_events += summary.dropped_events;
    merged.summary.suppressed_races += summary.suppressed_races;
    if (report.statistics) {
      if (!merged.statistics) merged.statistics.emplace();
      add_statistics(*merged.statistics, *report.statistics);
    }

    for (const Race& race : report.races) {
      if (Race* added = races.add(race)) added->pid = race.pid != 0 ? race.pid : report.run.pid;
    }
    for (const Diagnostic& diagnostic : report.diagnostics) {
      if (Diagnostic* added = diagnostics.add(diagnostic)) added->pid = diagnostic.pid != 0 ? diagnostic.pid : report.run.pid;
    }
  }
  return merged;
}

}  // namespace barracuda::report
