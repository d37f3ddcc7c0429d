#pragma once
// The allocation each global-memory race's address lay in when the race was first seen. The engine
// keeps a race's first address for the report built at exit; by then the allocation may be freed
// and its address handed out again, so the address is looked up as soon as the launch that found
// the race is checked, while the memory the kernel touched is usually still allocated. So is, for each access whose
// address the instrumentation traced back to a kernel parameter (ptx/passes/address_parameters.h),
// the allocation that parameter pointed into: an address outside it is an out-of-bounds access.
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>
#include <unordered_map>

#include "engine/engine.h"
#include "report/model.h"
#include "runtime/allocation_map.h"
#include "runtime/report_builder.h"
#include "runtime/site_registry.h"
#include "shim/launch_observer.h"

namespace barracuda::runtime {

// The values of the kernel parameters a launch's accesses derived addresses from (parameter index,
// value), read when the launch was issued: the application's copies are gone once the call returns.
struct LaunchArguments {
  std::string kernel;
  std::vector<std::pair<uint32_t, uint64_t>> pointers;
  bool read = false;  // the launch passed its arguments as kernel_params (not through `extra`)
};

class RaceAllocations {
 public:
  RaceAllocations(const engine::Engine& engine, const AllocationMap& allocations, const SiteRegistry& sites);

  // During the launch call: what note_new_races will need of `launch`'s arguments.
  LaunchArguments arguments_of(const shim::LaunchCall& launch) const;
  // Whether every pointer argument the kernel's accesses derive from points into a known allocation
  // and no two of them into the same one (null pointers aside): then a kernel that only reads
  // through one of them cannot write it through another.
  bool arguments_in_distinct_allocations(const LaunchArguments& arguments) const;
  // The allocation [begin, end) the argument of `parameter` points into, if the launch passed one there.
  std::optional<std::pair<uint64_t, uint64_t>> argument_allocation(const LaunchArguments& arguments,
                                                                   uint32_t parameter) const;
  // With the engine's results locked: looks up the races logged since the last call. `launch` holds
  // the arguments of the launch the engine just closed, or is null (a flush at exit).
  void note_new_races(const LaunchArguments* launch = nullptr);
  // Where `race`'s address lay when it was noted, symbolized now, and its out-of-bounds accesses;
  // nothing for races outside global memory (runtime/report_builder.h names shared memory by its block).
  RaceMemory memory_of(const engine::Race& race) const;

 private:
  // A kernel parameter an access's address came from, and what its value pointed into.
  struct ParameterPointee {
    uint32_t parameter = 0;
    uint64_t value = 0;
    std::optional<AllocationRecord> pointee;
  };
  struct NotedRace {
    std::optional<AllocationRecord> hit;
    std::optional<ParameterPointee> previous;
    std::optional<ParameterPointee> current;
  };

  // The parameter `site`'s address came from, read from the launch's arguments; nullopt when unknown.
  std::optional<ParameterPointee> parameter_of(engine::SiteId site, const LaunchArguments* launch) const;
  // The access through `noted` when the race's address lies outside what the parameter pointed into.
  static std::optional<report::OutOfBounds> out_of_bounds(const std::optional<ParameterPointee>& noted,
                                                          const engine::Race& race);

  const engine::Engine& engine_;
  const AllocationMap& allocations_;
  const SiteRegistry& sites_;
  mutable std::mutex mutex_;
  uint64_t noted_ = 0;  // races whose serial is below this were looked up
  std::unordered_map<uint64_t, NotedRace> by_serial_;  // global-memory races only
};

}  // namespace barracuda::runtime
