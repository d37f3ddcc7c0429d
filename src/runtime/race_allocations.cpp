#include "runtime/race_allocations.h"

#include <cstring>

#include "report/value_text.h"
#include "runtime/allocation_description.h"

namespace barracuda::runtime {

RaceAllocations::RaceAllocations(const engine::Engine& engine, const AllocationMap& allocations,
                                 const SiteRegistry& sites, std::function<std::unique_lock<std::mutex>()> lock_results)
    : engine_(engine), allocations_(allocations), sites_(sites), lock_results_(std::move(lock_results)) {}

void RaceAllocations::after_launch(const shim::LaunchInfo& launch, CUresult) {
  // Runs inside a driver entry point called from C: a failed lookup leaves the race unnamed.
  try {
    const std::unique_lock results = lock_results_();
    note_new_races(&launch);
  } catch (const std::exception&) {
  }
}

std::optional<RaceAllocations::ParameterPointee> RaceAllocations::parameter_of(engine::SiteId site,
                                                                               const shim::LaunchInfo* launch) const {
  if (launch == nullptr || launch->kernel_params == nullptr) return std::nullopt;
  const std::optional<trace::SiteInfo> info = sites_.find(static_cast<uint32_t>(site));
  if (!info || info->parameter < 0) return std::nullopt;
  const void* argument = launch->kernel_params[info->parameter];
  if (argument == nullptr) return std::nullopt;
  ParameterPointee noted{static_cast<uint32_t>(info->parameter), 0, std::nullopt};
  std::memcpy(&noted.value, argument, sizeof noted.value);  // the instrumentation saw ld.param.u64 of it
  noted.pointee = allocations_.find(noted.value);
  return noted;
}

void RaceAllocations::note_new_races(const shim::LaunchInfo* launch) {
  std::lock_guard lock(mutex_);
  const uint64_t logged = engine_.unique_races();
  if (logged == noted_) return;
  engine_.for_each_race([&](const engine::Race& race) {
    if (race.serial < noted_ || race.space != MemorySpace::kGlobal) return;
    NotedRace noted{allocations_.find(race.address), std::nullopt, std::nullopt};
    // The launch's arguments describe only its own accesses: not those of an earlier, concurrent launch.
    const bool own_launch = launch != nullptr && race.kernel == launch->kernel_name;
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
