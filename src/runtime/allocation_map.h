#pragma once
// The application's live device memory as address intervals: what cuMemAlloc and its kin returned,
// ranges mapped with cuMemMap, and the __device__ variables of the modules barracuda instrumented. A
// race report looks its address up here (runtime/race_allocations.h). Written from the application's
// threads as they allocate, read after each launch: a shared mutex.
#include <cstdint>
#include <map>
#include <optional>
#include <shared_mutex>
#include <string>

#include "report/model.h"
#include "shim/host_call_stack.h"

namespace barracuda::runtime {

struct AllocationRecord {
  uint64_t base = 0;
  uint64_t size = 0;
  report::AllocationKind kind = report::AllocationKind::kMemAlloc;
  std::string symbol;           // kGlobalVariable: the variable's (mangled) name
  const void* owner = nullptr;  // kGlobalVariable: the CUmodule or CUlibrary it belongs to
  shim::HostCallStack allocated_by;
};

class AllocationMap {
 public:
  // Adds [base, base + size). Anything it overlaps is dropped first: the driver handed those addresses
  // out again, so whatever held them was released through a path barracuda did not see. Empty ranges
  // are ignored.
  void insert(AllocationRecord record);
  // cuMemFree / cuMemFreeAsync: the allocation that starts at `base` leaves the map.
  void erase_starting_at(uint64_t base);
  // cuMemUnmap: every allocation overlapping [base, base + size) leaves the map.
  void erase_overlapping(uint64_t base, uint64_t size);
  // A module unload: its variables leave the map.
  void erase_owned_by(const void* owner);

  // The allocation holding `address`, if any.
  std::optional<AllocationRecord> find(uint64_t address) const;
  size_t size() const;

 private:
  // Under the exclusive lock.
  void erase_overlapping_locked(uint64_t base, uint64_t size);

  mutable std::shared_mutex mutex_;
  std::map<uint64_t, AllocationRecord> by_base_;  // disjoint intervals, keyed by their first byte
};

}  // namespace barracuda::runtime
