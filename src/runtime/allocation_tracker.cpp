#include "runtime/allocation_tracker.h"

#include <optional>

namespace barracuda::runtime {
namespace {

std::optional<report::AllocationKind> allocation_kind(shim::Hook hook) {
  using shim::Hook;
  switch (hook) {
    case Hook::MemAlloc: return report::AllocationKind::kMemAlloc;
    case Hook::MemAllocPitch: return report::AllocationKind::kMemAllocPitch;
    case Hook::MemAllocManaged: return report::AllocationKind::kMemAllocManaged;
    case Hook::MemAllocAsync:
    case Hook::MemAllocFromPoolAsync: return report::AllocationKind::kMemAllocAsync;
    case Hook::MemMap: return report::AllocationKind::kMemMap;
    default: return std::nullopt;
  }
}

}  // namespace

void AllocationTracker::on_allocation(const shim::DeviceAllocation& allocation) {
  const std::optional<report::AllocationKind> kind = allocation_kind(allocation.entry.hook);
  if (!kind) return;
  // Runs inside a driver entry point called from C: a failed insert loses one allocation's name.
  try {
    map_.insert(AllocationRecord{allocation.base, allocation.size, *kind, {}, nullptr, allocation.allocated_by});
  } catch (const std::exception&) {
  }
}

void AllocationTracker::on_release(const shim::DeviceRelease& release) {
  if (release.entry.hook == shim::Hook::MemUnmap) {
    map_.erase_overlapping(release.base, release.size);
  } else {
    map_.erase_starting_at(release.base);
  }
}

void AllocationTracker::on_unload(const shim::LoadedHandle& handle) {
  map_.erase_owned_by(handle.module != nullptr ? static_cast<const void*>(handle.module)
                                               : static_cast<const void*>(handle.library));
}

}  // namespace barracuda::runtime
