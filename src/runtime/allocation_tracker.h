#pragma once
// The shim's MemoryObserver: keeps the AllocationMap in step with what the application allocates,
// frees, maps, unmaps and unloads.
#include "runtime/allocation_map.h"
#include "shim/memory_observer.h"

namespace barracuda::runtime {

class AllocationTracker final : public shim::MemoryObserver {
 public:
  explicit AllocationTracker(AllocationMap& map) : map_(map) {}

  void on_allocation(const shim::DeviceAllocation& allocation) override;
  void on_release(const shim::DeviceRelease& release) override;
  void on_unload(const shim::LoadedHandle& handle) override;

 private:
  AllocationMap& map_;
};

}  // namespace barracuda::runtime
