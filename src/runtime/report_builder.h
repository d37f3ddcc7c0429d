#pragma once
// Turns the engine's findings (site ids, linear block/thread ids) into the report model (source
// locations from the site tables, 3-D coordinates from the launch dimensions).
#include <functional>
#include <optional>

#include "engine/engine.h"
#include "engine/findings.h"
#include "report/model.h"
#include "runtime/launch_monitor.h"
#include "runtime/module_instrumenter.h"
#include "runtime/site_registry.h"

namespace barracuda::runtime {

using LaunchLookup = std::function<std::optional<LaunchRecord>(const std::string& kernel)>;
// What a global-memory race's memory was when the race was seen (runtime/race_allocations.h): the
// allocation its address lay in, and for each access whose address came from a kernel parameter
// pointing elsewhere, that out-of-bounds access.
struct RaceMemory {
  std::optional<report::Allocation> allocation;
  std::optional<report::OutOfBounds> previous_out_of_bounds;
  std::optional<report::OutOfBounds> current_out_of_bounds;
};
// Empty where allocations were not tracked (`barracuda replay`): such races name no allocation.
using AllocationLookup = std::function<RaceMemory(const engine::Race& race)>;

// Shared-memory races name their block's shared memory whatever `allocations` says.
report::Race to_report(const engine::Race& race, const SiteRegistry& sites, const LaunchLookup& launches,
                       const AllocationLookup& allocations = {});
std::optional<report::Diagnostic> to_report(const engine::Diagnostic& diagnostic, const SiteRegistry& sites,
                                            const LaunchLookup& launches);

struct FindingOptions {
  // Redundant-barrier warnings only when asked (warn_redundant_barriers): a CI run of correct code
  // prints no warning by default.
  bool redundant_barriers = false;
  // A write-write race between two sites that only ever stored the same value is the warning class
  // "same-value write-write" unless same_value_races makes it a race like any other.
  bool same_value_races = false;
  // A race that a spin on an atomic would have ordered, had an acquire fence followed it, is the
  // warning class "unfenced acquire" unless unfenced_acquire_races makes it a race like any other.
  bool unfenced_acquire_races = false;
  // Diagnostics located in the CUDA toolkit's own headers (report/toolkit_headers.h) only when asked.
  bool toolkit_diagnostics = false;
  // The run's schedule-perturbation seed (option perturb): every finding names it, so the order that
  // showed it can be run again (and `barracuda run --explore` knows which of its runs found what).
  uint64_t perturb_seed = 0;
};

// The queues' memory: the largest arena of the run (a device reset frees one before the next exists).
struct QueueMemory {
  uint64_t host_bytes = 0;
  uint64_t device_bytes = 0;
};

// The run's statistics (report::Statistics) from the monitor's, the engine's and the instrumenter's totals.
report::Statistics run_statistics(const LaunchTotals& launches, const engine::EngineStats& engine,
                                  const InstrumentationTotals& modules, const QueueMemory& queues);

// Appends the engine's races and diagnostics to `report`.
void add_findings(report::Report& report, const engine::Engine& engine, const SiteRegistry& sites,
                  const LaunchLookup& launches, const FindingOptions& options,
                  const AllocationLookup& allocations = {});

}  // namespace barracuda::runtime
