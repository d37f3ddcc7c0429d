#include "report/fingerprint.h"
#include "report/json_report.h"
#include "report/names.h"
#include "report/summary_counts.h"
#include "report/value_text.h"

namespace barracuda::report {
namespace {

using Json = nlohmann::ordered_json;

Json coord_json(const Coord3& d) { return Json::array({d.x, d.y, d.z}); }

Json thread_json(const ThreadCoordinates& t) {
  Json json{{"block", coord_json(t.block)}, {"thread", coord_json(t.thread)}, {"warp", t.warp}, {"lane", t.lane}};
  if (t.child_grid) {
    json["child_grid"] = Json{{"grid", coord_json(t.child_grid->grid)}, {"block", coord_json(t.child_grid->block)}};
  }
  return json;
}

Json site_json(const Site& site) {
  Json inlined = Json::array();
  for (const InlinedFrame& frame : site.inlined_at) {
    inlined.push_back(Json{{"function", frame.function},
                           {"file", frame.location.file},
                           {"line", frame.location.line},
                           {"column", frame.location.column}});
  }
  return Json{{"function", site.function},       {"ptx_line", site.ptx_line},
              {"file", site.source.file},        {"line", site.source.line},
              {"column", site.source.column},    {"inlined_at", std::move(inlined)}};
}

Json access_json(const Access& access) {
  Json json{{"kind", name_of(kAccessOperationNames, access.kind)},
            {"semantics", name_of(kMemorySemanticsNames, access.semantics)},
            {"scope", name_of(kMemoryScopeNames, access.scope)},
            {"thread", thread_json(access.thread)},
            {"site", site_json(access.site)}};
  if (access.out_of_bounds) {
    json["out_of_bounds"] = Json{{"parameter", access.out_of_bounds->parameter},
                                 {"parameter_type", access.out_of_bounds->parameter_type},
                                 {"pointee", allocation_json(access.out_of_bounds->pointee)}};
  }
  if (access.device) json["device"] = *access.device;
  return json;
}

}  // namespace

Json allocation_json(const Allocation& allocation) {
  Json json{{"kind", name_of(kAllocationKindNames, allocation.kind)}};
  if (allocation.kind == AllocationKind::kNone) return json;
  json["offset"] = address_text(allocation.offset);
  if (allocation.kind == AllocationKind::kShared) {
    json["block"] = coord_json(allocation.block);
    return json;
  }
  json["base"] = address_text(allocation.base);
  json["size"] = allocation.size;
  if (!allocation.symbol.empty()) json["symbol"] = allocation.symbol;
  json["allocated_by"] = allocation.allocated_by;
  return json;
}

namespace {

Json race_json(const Race& race) {
  Json json{{"fingerprint", race_fingerprint(race)},
              {"class", name_of(kRaceClassNames, race.race_class)},
              {"hazard", name_of(kHazardNames, race.hazard)},
              {"space", name_of(kMemorySpaceNames, race.space)},
              {"scope", name_of(kMemoryScopeNames, race.scope)},
              {"address", address_text(race.address)},
              {"size", race.size},
              {"kernel", race.kernel},
              {"launch_index", race.launch_index},
              {"dynamic_count", race.dynamic_count},
              {"known", race.known},
              {"current", access_json(race.current)},
              {"previous", access_json(race.previous)}};
  if (race.pid != 0) json["pid"] = race.pid;
  if (race.perturb_seed != 0) json["perturb_seed"] = race.perturb_seed;
  if (race.same_value) json["same_value"] = true;
  if (race.unfenced_acquire) {
    json["unfenced_acquire"] = Json{{"flag", site_json(race.unfenced_acquire->flag)},
                                    {"missing_fence", race.unfenced_acquire->missing_fence}};
  }
  if (race.flag_hand_off) {
    json["flag_hand_off"] = Json{{"write", site_json(race.flag_hand_off->write)},
                                 {"read", site_json(race.flag_hand_off->read)},
                                 {"address", address_text(race.flag_hand_off->address)}};
  }
  if (race.allocation) json["allocation"] = allocation_json(*race.allocation);
  return json;
}

Json diagnostic_json(const Diagnostic& diagnostic) {
  Json json{{"kind", name_of(kDiagnosticKindNames, diagnostic.kind)},
              {"kernel", diagnostic.kernel},
              {"launch_index", diagnostic.launch_index},
              {"site", site_json(diagnostic.site)},
              {"thread", thread_json(diagnostic.thread)},
              {"detail", diagnostic.detail}};
  if (diagnostic.pid != 0) json["pid"] = diagnostic.pid;
  if (diagnostic.perturb_seed != 0) json["perturb_seed"] = diagnostic.perturb_seed;
  return json;
}

Json summary_json(const Report& report) {
  const Summary& summary = report.summary;
  const SummaryCounts counts = count_summary(report);
  Json skipped = Json::array();
  for (const SkippedKernel& kernel : summary.kernels_skipped) {
    skipped.push_back(Json{{"kernel", kernel.kernel}, {"reason", kernel.reason}});
  }
  Json unlogged = Json::array();
  for (const UnloggedInstructions& instructions : summary.unlogged_instructions) {
    unlogged.push_back(Json{{"kind", instructions.kind}, {"kernels", instructions.kernels}});
  }
  return Json{{"kernels_instrumented", summary.kernels_instrumented},
              {"kernels_machine_code", summary.kernels_machine_code},
              {"library_code", summary.library_code},
              {"kernels_skipped", std::move(skipped)},
              {"unlogged_instructions", std::move(unlogged)},
              {"launches", summary.launches},
              {"launches_filtered", summary.launches_filtered},
              {"events", summary.events},
              {"dropped_events", summary.dropped_events},
              {"suppressed_races", summary.suppressed_races},
              {"unique_races", counts.unique_races},
              {"new_races", counts.new_races},
              {"dynamic_races", counts.dynamic_races},
              {"barrier_divergences", counts.barrier_divergences},
              {"warnings", counts.warnings},
              {"analysis_incomplete", analysis_incomplete(report)}};
}

Json statistics_json(const Statistics& statistics, uint64_t events) {
  const StatisticsFigures figures = statistics_figures(statistics, events);
  return Json{{"events", events},
              {"slots", statistics.slots},
              {"bytes_logged", figures.bytes_logged},
              {"bytes_per_event", figures.bytes_per_event},
              {"queue_host_bytes", statistics.queue_host_bytes},
              {"queue_device_bytes", statistics.queue_device_bytes},
              {"queue_bytes", figures.queue_bytes},
              {"drain_threads", statistics.drain_threads},
              {"drain_wait_seconds", statistics.drain_wait.count()},
              {"drain_events_per_second", figures.drain_events_per_second},
              {"engine_seconds", statistics.engine_time.count()},
              {"engine_thread_accesses", statistics.engine_thread_accesses},
              {"engine_thread_accesses_per_second", figures.engine_thread_accesses_per_second},
              {"engine_peak_resident_blocks", statistics.engine_peak_resident_blocks},
              {"engine_repeated_reads", statistics.engine_repeated_reads},
              {"engine_peak_held_back_records", statistics.engine_peak_held_back_records},
              {"engine_records_applied_at_launch_end", statistics.engine_records_applied_at_launch_end},
              {"launches_global_on_device", statistics.launches_global_on_device},
              {"global_on_host_reason", statistics.global_on_host_reason},
              {"modules_instrumented", statistics.modules_instrumented},
              {"cache_misses", statistics.cache_misses},
              {"jit_seconds", statistics.jit_time.count()},
              {"cache_hits", statistics.cache_hits},
              {"cache_load_seconds", statistics.cache_load_time.count()}};
}

}  // namespace

Json report_to_json(const Report& report) {
  Json races = Json::array();
  for (const Race& race : report.races) races.push_back(race_json(race));
  Json diagnostics = Json::array();
  for (const Diagnostic& diagnostic : report.diagnostics) diagnostics.push_back(diagnostic_json(diagnostic));
  const RunInfo& run = report.run;
  Json document{{"schema", kReportSchemaName},
              {"schema_version", kReportSchemaVersion},
              {"run",
               {{"tool_version", run.tool_version},
                {"command_line", run.command_line},
                {"device_name", run.device_name},
                {"start_time", run.start_time},
                {"warp_model", name_of(kWarpModelNames, run.warp_model)},
                {"pid", run.pid}}},
              {"summary", summary_json(report)},
              {"races", std::move(races)},
              {"diagnostics", std::move(diagnostics)}};
  if (report.statistics) document["statistics"] = statistics_json(*report.statistics, report.summary.events);
  if (!report.processes.empty()) {
    Json processes = Json::array();
    for (const ProcessInfo& process : report.processes) {
      processes.push_back(Json{{"pid", process.pid}, {"command_line", process.command_line}});
    }
    document["processes"] = std::move(processes);
  }
  return document;
}

std::string render_json(const Report& report) { return report_to_json(report).dump(2) + '\n'; }

}  // namespace barracuda::report
