#include "runtime/report_builder.h"

#include "report/finding_set.h"
#include "report/toolkit_headers.h"
#include "report/value_text.h"

namespace barracuda::runtime {
namespace {

report::Site to_report_site(engine::SiteId id, const SiteRegistry& sites) {
  report::Site site;
  std::optional<trace::SiteInfo> found = sites.find(static_cast<uint32_t>(id));
  if (!found) {
    site.function = "<unknown site " + std::to_string(static_cast<uint32_t>(id)) + ">";
    return site;
  }
  site.function = found->function;
  site.ptx_line = found->ptx_line;
  site.source = {found->file, found->line, found->column};
  // An access inside an inlined function is reported at its own line, with the call site in the
  // kernel as the frame it was inlined into; unless that line is in the toolkit's headers (atomicAdd,
  // cooperative groups), where the user's call is the line worth showing.
  if (found->inner_line != 0 && !report::in_toolkit_headers(found->inner_file)) {
    site.inlined_at.push_back({found->function, site.source});
    site.source = {found->inner_file, found->inner_line, found->inner_column};
  }
  return site;
}

report::Coord3 unflatten(uint64_t linear, const engine::Dim3& dims) {
  return {static_cast<uint32_t>(linear % dims.x), static_cast<uint32_t>(linear / dims.x % dims.y),
          static_cast<uint32_t>(linear / (uint64_t{dims.x} * dims.y))};
}

// The report counts launches from 0 in issue order; the engine from 1, with 0 for "not known".
uint32_t launch_index(engine::LaunchSeq launch) {
  return engine::raw(launch) == 0 ? 0 : static_cast<uint32_t>(engine::raw(launch) - 1);
}

report::ThreadCoordinates to_report_thread(const engine::ThreadCoord& thread, const std::optional<LaunchRecord>& launch) {
  report::ThreadCoordinates coords;
  engine::Dim3 grid = launch ? launch->grid : engine::Dim3{};
  engine::Dim3 block = launch ? launch->block : engine::Dim3{};
  uint32_t block_in_grid = raw(thread.block);
  if (thread.child) {  // a grid launched from the device: its block ids follow the launch's
    grid = thread.child->grid;
    block = thread.child->block;
    block_in_grid -= raw(thread.child->first_block);
    coords.child_grid = report::ChildGrid{{grid.x, grid.y, grid.z}, {block.x, block.y, block.z}};
  }
  coords.block = unflatten(block_in_grid, grid);
  coords.thread = unflatten(thread.thread, block);
  coords.warp = thread.thread / kWarpSize;
  coords.lane = thread.thread % kWarpSize;
  return coords;
}

report::RaceClass to_report(engine::RaceClass c) {
  switch (c) {
    case engine::RaceClass::kIntraWarp: return report::RaceClass::kIntraWarp;
    case engine::RaceClass::kInterWarp: return report::RaceClass::kInterWarp;
    case engine::RaceClass::kInterBlock: return report::RaceClass::kInterBlock;
    case engine::RaceClass::kBranchOrdering: return report::RaceClass::kBranchOrdering;
    case engine::RaceClass::kScoped: return report::RaceClass::kScoped;
    case engine::RaceClass::kInterDevice: return report::RaceClass::kInterDevice;
  }
  return report::RaceClass::kInterBlock;
}

report::Hazard to_report(engine::Hazard h) {
  switch (h) {
    case engine::Hazard::kReadAfterWrite: return report::Hazard::kReadAfterWrite;
    case engine::Hazard::kWriteAfterRead: return report::Hazard::kWriteAfterRead;
    case engine::Hazard::kWriteAfterWrite: return report::Hazard::kWriteAfterWrite;
    case engine::Hazard::kAtomicPlain: return report::Hazard::kAtomicPlain;
  }
  return report::Hazard::kWriteAfterWrite;
}

// The kinds of the two accesses (earlier, later) follow from the hazard, and for an atomic-plain pair
// from its sides.
std::pair<report::AccessOperation, report::AccessOperation> access_kinds(engine::Hazard h, AtomicPlainSides sides) {
  using K = report::AccessOperation;
  switch (h) {
    case engine::Hazard::kReadAfterWrite: return {K::kWrite, K::kRead};
    case engine::Hazard::kWriteAfterRead: return {K::kRead, K::kWrite};
    case engine::Hazard::kWriteAfterWrite: return {K::kWrite, K::kWrite};
    case engine::Hazard::kAtomicPlain: {
      const K plain = sides.plain_write ? K::kWrite : K::kRead;
      return sides.atomic_first ? std::pair{K::kAtomic, plain} : std::pair{plain, K::kAtomic};
    }
  }
  return {K::kWrite, K::kWrite};
}

}  // namespace

report::UnfencedAcquire unfenced_acquire(const engine::UnfencedOrigin& origin, const SiteRegistry& sites) {
  report::UnfencedAcquire out;
  if (!origin.valid) {
    out.missing_fence = "an acquire fence after a spin on an atomic";
    return out;
  }
  out.flag = to_report_site(origin.flag_site, sites);
  out.missing_fence = report::fence_text(origin.needed) + " after the spin on the flag" +
                      (origin.narrow_fence ? " (" + report::fence_text(origin.fence) + " is too narrow)" : " (there is none)");
  return out;
}

report::Race to_report(const engine::Race& race, const SiteRegistry& sites, const LaunchLookup& launches,
                       const AllocationLookup& allocations) {
  std::optional<LaunchRecord> launch = launches(race.kernel);
  // A cross-launch race's earlier thread is in the other launch's grid.
  std::optional<LaunchRecord> first_launch = race.first_kernel.empty() ? launch : launches(race.first_kernel);
  report::Race out;
  out.race_class = to_report(race.race_class);
  out.hazard = to_report(race.hazard);
  out.space = race.space;
  out.address = race.address;
  out.size = race.size;
  out.kernel = race.kernel;
  out.launch_index = launch_index(race.launch);
  out.dynamic_count = race.count;
  auto [previous_kind, current_kind] = access_kinds(race.hazard, race.sides);
  out.previous = {to_report_site(race.first_site, sites), to_report_thread(race.first_thread, first_launch), previous_kind};
  out.current = {to_report_site(race.second_site, sites), to_report_thread(race.second_thread, launch), current_kind};
  out.previous.device = raw(race.first_device);
  out.current.device = raw(race.device);
  if (race.space == MemorySpace::kShared) {
    // Both threads are in one block (shared memory is the block's own): the current one names it.
    out.allocation = report::Allocation{.kind = report::AllocationKind::kShared, .offset = race.address,
                                        .block = out.current.thread.block};
  } else if (allocations) {
    RaceMemory memory = allocations(race);
    out.allocation = std::move(memory.allocation);
    out.previous.out_of_bounds = std::move(memory.previous_out_of_bounds);
    out.current.out_of_bounds = std::move(memory.current_out_of_bounds);
  }
  return out;
}

std::optional<report::Diagnostic> to_report(const engine::Diagnostic& diagnostic, const SiteRegistry& sites,
                                            const LaunchLookup& launches) {
  report::Diagnostic out;
  switch (diagnostic.kind) {
    case engine::DiagnosticKind::kBarrierDivergence: out.kind = report::DiagnosticKind::kBarrierDivergence; break;
    case engine::DiagnosticKind::kRedundantBarrier: out.kind = report::DiagnosticKind::kRedundantBarrier; break;
    case engine::DiagnosticKind::kMalformedRecord: return std::nullopt;  // counted as incomplete analysis
  }
  out.kernel = diagnostic.kernel;
  out.launch_index = launch_index(diagnostic.launch);
  out.site = to_report_site(diagnostic.site, sites);
  out.thread = to_report_thread({diagnostic.block, 0}, launches(diagnostic.kernel));
  out.detail = diagnostic.message;
  return out;
}

void add_findings(report::Report& report, const engine::Engine& engine, const SiteRegistry& sites,
                  const LaunchLookup& launches, const FindingOptions& options, const AllocationLookup& allocations) {
  // Findings of instructions at one source position (an unrolled loop) are one finding.
  report::RaceSet races(report.races);
  for (const engine::Race& race : engine.races()) {
    report::Race converted = to_report(race, sites, launches, allocations);
    converted.same_value = race.same_value && !options.same_value_races;
    converted.perturb_seed = options.perturb_seed;
    if (race.unfenced_acquire && !options.unfenced_acquire_races && !converted.same_value) {
      converted.unfenced_acquire = unfenced_acquire(race.unfenced, sites);
    }
    if (race.flag.valid && !converted.unfenced_acquire) {
      converted.flag_hand_off = report::FlagHandOff{to_report_site(race.flag.write_site, sites),
                                                    to_report_site(race.flag.read_site, sites), race.flag.address};
    }
    races.add(std::move(converted));
  }
  report::DiagnosticSet diagnostics(report.diagnostics);
  for (const engine::Diagnostic& d : engine.diagnostics()) {
    if (d.kind == engine::DiagnosticKind::kRedundantBarrier && !options.redundant_barriers) continue;
    auto converted = to_report(d, sites, launches);
    if (!converted) continue;
    if (!options.toolkit_diagnostics && report::in_toolkit_headers(converted->site.source.file)) continue;
    converted->perturb_seed = options.perturb_seed;
    diagnostics.add(*std::move(converted));
  }
}

report::Statistics run_statistics(const LaunchTotals& launches, const engine::EngineStats& engine,
                                  const InstrumentationTotals& modules, const QueueMemory& queues) {
  report::Statistics statistics;
  statistics.slots = launches.slots;
  statistics.queue_host_bytes = queues.host_bytes;
  statistics.queue_device_bytes = queues.device_bytes;
  statistics.drain_threads = launches.drain_threads;
  statistics.drain_wait = launches.in_flight_time;
  statistics.engine_time = launches.engine_time;
  statistics.engine_thread_accesses = engine.thread_accesses;
  statistics.engine_repeated_reads = engine.repeated_reads;
  statistics.engine_peak_resident_blocks = engine.peak_resident_blocks;
  statistics.engine_peak_held_back_records = engine.peak_held_back_records;
  statistics.engine_records_applied_at_launch_end = engine.records_applied_at_launch_end;
  statistics.launches_global_on_device = launches.launches_global_on_device;
  statistics.global_on_host_reason = launches.global_declined;
  statistics.modules_instrumented = modules.compiled + modules.cached;
  statistics.cache_misses = modules.compiled;
  statistics.jit_time = modules.compile_time;
  statistics.cache_hits = modules.cached;
  statistics.cache_load_time = modules.cache_load_time;
  return statistics;
}

}  // namespace barracuda::runtime
