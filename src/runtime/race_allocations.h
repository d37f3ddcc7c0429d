#pragma once
// The allocation each global-memory race's address lay in when the race was first seen. The engine
// keeps a race's first address for the report built at exit; by then the allocation may be freed
// and its address handed out again, so the address is looked up right after the launch that found
// the race, while the memory the kernel touched is still allocated.
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "engine/engine.h"
#include "report/model.h"
#include "runtime/allocation_map.h"
#include "shim/launch_observer.h"

namespace barracuda::runtime {

class RaceAllocations final : public shim::LaunchObserver {
 public:
  // `lock_results` holds the engine's results still (LaunchMonitor::lock_results). Registered after
  // the LaunchMonitor, whose after_launch closes the launch in the engine first.
  RaceAllocations(const engine::Engine& engine, const AllocationMap& allocations,
                  std::function<std::unique_lock<std::mutex>()> lock_results);

  void before_launch(const shim::LaunchInfo&) override {}
  void after_launch(const shim::LaunchInfo& launch, CUresult result) override;

  // With the engine's results locked: looks up the races logged since the last call.
  void note_new_races();
  // Where `race`'s address lay when it was noted, symbolized now; nullopt for races outside global
  // memory (runtime/report_builder.h names shared memory by its block).
  std::optional<report::Allocation> allocation_of(const engine::Race& race) const;

 private:
  const engine::Engine& engine_;
  const AllocationMap& allocations_;
  std::function<std::unique_lock<std::mutex>()> lock_results_;
  mutable std::mutex mutex_;
  uint64_t noted_ = 0;  // races whose serial is below this were looked up
  std::unordered_map<uint64_t, std::optional<AllocationRecord>> by_serial_;  // global-memory races only
};

}  // namespace barracuda::runtime
