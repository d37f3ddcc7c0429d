#include "runtime/race_allocations.h"

#include "runtime/allocation_description.h"

namespace barracuda::runtime {

RaceAllocations::RaceAllocations(const engine::Engine& engine, const AllocationMap& allocations,
                                 std::function<std::unique_lock<std::mutex>()> lock_results)
    : engine_(engine), allocations_(allocations), lock_results_(std::move(lock_results)) {}

void RaceAllocations::after_launch(const shim::LaunchInfo&, CUresult) {
  // Runs inside a driver entry point called from C: a failed lookup leaves the race unnamed.
  try {
    const std::unique_lock results = lock_results_();
    note_new_races();
  } catch (const std::exception&) {
  }
}

void RaceAllocations::note_new_races() {
  std::lock_guard lock(mutex_);
  const uint64_t logged = engine_.unique_races();
  if (logged == noted_) return;
  engine_.for_each_race([&](const engine::Race& race) {
    if (race.serial < noted_ || race.space != MemorySpace::kGlobal) return;
    by_serial_.emplace(race.serial, allocations_.find(race.address));
  });
  noted_ = logged;
}

std::optional<report::Allocation> RaceAllocations::allocation_of(const engine::Race& race) const {
  std::lock_guard lock(mutex_);
  const auto noted = by_serial_.find(race.serial);
  if (noted == by_serial_.end()) return std::nullopt;
  return describe_allocation(noted->second, race.address);
}

}  // namespace barracuda::runtime
