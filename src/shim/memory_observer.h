#pragma once
// Notifications of the application's device memory: what it allocated (and from where on the host),
// what it freed, and modules unloaded (their __device__ variables go with them). A race report names
// the allocation its address lies in from these. Sent from the calling thread after the driver call
// succeeded, except unloads, announced before the call (the module is still there to be asked about).
#include <cuda.h>

#include <cstddef>

#include "shim/hook_symbols.h"
#include "shim/host_call_stack.h"
#include "shim/module_transformer.h"

namespace barracuda::shim {

struct DeviceAllocation {
  HookedSymbol entry;  // cuMemAlloc_v2, cuMemAllocPitch_v2, cuMemAllocManaged, cuMemAllocAsync, cuMemMap, ...
  CUdeviceptr base;
  std::size_t size;  // pitch x height for cuMemAllocPitch; the mapped range for cuMemMap
  HostCallStack allocated_by;
};

struct DeviceRelease {
  HookedSymbol entry;  // cuMemFree_v2, cuMemFreeAsync, cuMemUnmap
  CUdeviceptr base;
  std::size_t size;  // cuMemUnmap: the range unmapped; 0 for a free (the allocation that starts at base)
};

class MemoryObserver {
 public:
  virtual ~MemoryObserver() = default;
  virtual void on_allocation(const DeviceAllocation& allocation) = 0;
  virtual void on_release(const DeviceRelease& release) = 0;
  // cuModuleUnload (handle.module) or cuLibraryUnload (handle.library).
  virtual void on_unload(const LoadedHandle& handle) = 0;
};

}  // namespace barracuda::shim
