#include "runtime/race_allocations.h"

#include <algorithm>
#include <cstring>

#include "report/value_text.h"
#include "runtime/allocation_description.h"

namespace barracuda::runtime {

RaceAllocations::RaceAllocations(const engine::Engine& engine, const AllocationMap& allocations,
                                 const SiteRegistry& sites)
    : engine_(engine), allocations_(allocations), sites_(sites) {}

LaunchArguments RaceAllocations::arguments_of(const shim::LaunchCall& launch) const {
  LaunchArguments arguments{std::string(launch.kernel_name), {}};
  if (launch.kernel_params == nullptr) return arguments;
  arguments.read = true;
  for (const uint32_t parameter : sites_.pointer_parameters(launch.kernel_name)) {
    const void* argument = launch.kernel_params[parameter];
    if (argument == nullptr) continue;
    uint64_t value = 0;
    std::memcpy(&value, argument, sizeof value);  // the instrumentation saw ld.param.u64 of it
    arguments.pointers.emplace_back(parameter, value);
  }
  return arguments;
}

bool RaceAllocations::arguments_in_distinct_allocations(const LaunchArguments& arguments) const {
  if (!arguments.read) return false;
  std::vector<uint64_t> bases;
  for (const auto& [parameter, value] : arguments.pointers) {
    if (value == 0) continue;
    const std::optional<AllocationRecord> allocation = allocations_.find(value);
    if (!allocation) return false;  // managed, host-mapped or foreign memory: cannot tell
    bases.push_back(allocation->base);
  }
  std::sort(bases.begin(), bases.end());
  return std::adjacent_find(bases.begin(), bases.end()) == bases.end();
}

std::optional<std::pair<uint64_t, uint64_t>> RaceAllocations::argument_allocation(const LaunchArguments& arguments,
                                                                                  uint32_t parameter) const {
  for (const auto& [index, value] : arguments.pointers) {
    if (index != parameter || value == 0) continue;
    if (const std::optional<AllocationRecord> allocation = allocations_.find(value)) {
      return std::pair{allocation->base, allocation->base + allocation->size};
    }
  }
  return std::nullopt;
}

std::optional<RaceAllocations::ParameterPointee> RaceAllocations::parameter_of(engine::SiteId site,
                                                                               const LaunchArguments* launch) const {
  if (launch == nullptr) return std::nullopt;
  const std::optional<trace::SiteInfo> info = sites_.find(static_cast<uint32_t>(site));
  if (!info || info->parameter < 0) return std::nullopt;
  for (const auto& [parameter, value] : launch->pointers) {
    if (parameter != static_cast<uint32_t>(info->parameter)) continue;
    return ParameterPointee{parameter, value, allocations_.find(value)};
  }
  return std::nullopt;
}

void RaceAllocations::note_new_races(const LaunchArguments* launch) {
  std::lock_guard lock(mutex_);
  const uint64_t logged = engine_.unique_races();
  if (logged == noted_) return;
  engine_.for_each_race([&](const engine::Race& race) {
    if (race.serial < noted_ || race.space != MemorySpace::kGlobal) return;
    NotedRace noted{allocations_.find(race.address), std::nullopt, std::nullopt};
    // The launch's arguments describe only its own accesses: not those of an earlier, concurrent launch.
    const bool own_launch = launch != nullptr && race.kernel == launch->kernel;
    if (own_launch) noted.current = parameter_of(race.second_site, launch);
    if (own_launch && race.first_kernel.empty()) noted.previous = parameter_of(race.first_site, launch);
    by_serial_.emplace(race.serial, std::move(noted));
  });
  noted_ = logged;
}

RaceMemory RaceAllocations::memory_of(const engine::Race& race) const {
  std::lock_guard lock(mutex_);
  const auto noted = by_serial_.find(race.serial);
  if (noted == by_serial_.end()) return {};
  return {describe_allocation(noted->second.hit, race.address), out_of_bounds(noted->second.previous, race),
          out_of_bounds(noted->second.current, race)};
}

std::optional<report::OutOfBounds> RaceAllocations::out_of_bounds(const std::optional<ParameterPointee>& noted,
                                                                  const engine::Race& race) {
  // A parameter pointing into memory barracuda does not know proves nothing.
  if (!noted || !noted->pointee) return std::nullopt;
  const AllocationRecord& pointee = *noted->pointee;
  if (race.address >= pointee.base && race.address - pointee.base < pointee.size) return std::nullopt;
  return report::OutOfBounds{noted->parameter, report::kernel_parameter_type(race.kernel, noted->parameter),
                             describe_allocation(pointee, noted->value)};
}

}  // namespace barracuda::runtime
