// Device memory entry points are announced to the memory observers once the driver call succeeded;
// module unloads before the call, while the module's variables can still be looked up.
#include "shim/interceptors.h"
#include "shim/memory_hooks.h"
#include "shim/reentrancy_guard.h"
#include "shim/shim_runtime.h"

namespace barracuda::shim {
namespace {

// `call()` performs the driver call, which writes *base on success. The host stack is taken only when
// someone listens: an application that allocates in a loop pays one unwind per allocation.
template <typename Call>
CUresult observe_allocation(const DriverEntry& entry, const CUdeviceptr* base, const std::size_t* size,
                            Call&& call) {
  ReentrancyGuard guard;
  const CUresult result = call();
  ShimRuntime& runtime = shim_runtime();
  if (result != CUDA_SUCCESS || guard.nested() || base == nullptr || runtime.memory_observers.empty()) return result;
  const DeviceAllocation allocation{entry.symbol, *base, *size, capture_host_call_stack()};
  runtime.memory_observers.for_each([&](MemoryObserver& observer) { observer.on_allocation(allocation); });
  return result;
}

template <typename Call>
CUresult observe_release(const DeviceRelease& release, Call&& call) {
  const CUresult result = call();
  if (result == CUDA_SUCCESS) announce_release(release);
  return result;
}

template <typename Call>
CUresult announce_unload(const LoadedHandle& handle, Call&& call) {
  {
    ReentrancyGuard guard;
    if (!guard.nested()) shim_runtime().memory_observers.for_each([&](MemoryObserver& observer) { observer.on_unload(handle); });
  }
  return call();
}

}  // namespace

void announce_release(const DeviceRelease& release) {
  ReentrancyGuard guard;
  if (guard.nested()) return;
  shim_runtime().memory_observers.for_each([&](MemoryObserver& observer) { observer.on_release(release); });
}

CUresult intercept_mem_alloc(const DriverEntry& entry, CUdeviceptr* pointer, size_t bytes) {
  return observe_allocation(entry, pointer, &bytes, [&] { return entry.real_as<PFN_cuMemAlloc_v3020>()(pointer, bytes); });
}

CUresult intercept_mem_alloc_pitch(const DriverEntry& entry, CUdeviceptr* pointer, size_t* pitch, size_t width,
                                   size_t height, unsigned int element_bytes) {
  size_t bytes = 0;
  return observe_allocation(entry, pointer, &bytes, [&] {
    const CUresult result = entry.real_as<PFN_cuMemAllocPitch_v3020>()(pointer, pitch, width, height, element_bytes);
    if (result == CUDA_SUCCESS && pitch != nullptr) bytes = *pitch * height;
    return result;
  });
}

CUresult intercept_mem_alloc_managed(const DriverEntry& entry, CUdeviceptr* pointer, size_t bytes, unsigned int flags) {
  return observe_allocation(entry, pointer, &bytes,
                            [&] { return entry.real_as<PFN_cuMemAllocManaged_v6000>()(pointer, bytes, flags); });
}

CUresult intercept_mem_alloc_async(const DriverEntry& entry, CUdeviceptr* pointer, size_t bytes, CUstream stream) {
  return observe_allocation(entry, pointer, &bytes,
                            [&] { return entry.real_as<PFN_cuMemAllocAsync_v11020>()(pointer, bytes, stream); });
}

CUresult intercept_mem_alloc_from_pool_async(const DriverEntry& entry, CUdeviceptr* pointer, size_t bytes,
                                             CUmemoryPool pool, CUstream stream) {
  return observe_allocation(entry, pointer, &bytes, [&] {
    return entry.real_as<PFN_cuMemAllocFromPoolAsync_v11020>()(pointer, bytes, pool, stream);
  });
}

CUresult intercept_mem_map(const DriverEntry& entry, CUdeviceptr pointer, size_t size, size_t offset,
                           CUmemGenericAllocationHandle handle, unsigned long long flags) {
  return observe_allocation(entry, &pointer, &size,
                            [&] { return entry.real_as<PFN_cuMemMap_v10020>()(pointer, size, offset, handle, flags); });
}

CUresult intercept_mem_free_async(const DriverEntry& entry, CUdeviceptr pointer, CUstream stream) {
  return observe_release({entry.symbol, pointer, 0},
                         [&] { return entry.real_as<PFN_cuMemFreeAsync_v11020>()(pointer, stream); });
}

CUresult intercept_mem_unmap(const DriverEntry& entry, CUdeviceptr pointer, size_t size) {
  return observe_release({entry.symbol, pointer, size}, [&] { return entry.real_as<PFN_cuMemUnmap_v10020>()(pointer, size); });
}

CUresult intercept_module_unload(const DriverEntry& entry, CUmodule module) {
  return announce_unload(LoadedHandle{module, nullptr}, [&] { return entry.real_as<PFN_cuModuleUnload_v2000>()(module); });
}

CUresult intercept_library_unload(const DriverEntry& entry, CUlibrary library) {
  return announce_unload(LoadedHandle{nullptr, library},
                         [&] { return entry.real_as<PFN_cuLibraryUnload_v12000>()(library); });
}

}  // namespace barracuda::shim
