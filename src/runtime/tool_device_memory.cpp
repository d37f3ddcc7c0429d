#include "runtime/tool_device_memory.h"

#include <stdexcept>
#include <string>

#include "runtime/driver_api.h"

namespace barracuda::runtime {
namespace {

void check(CUresult result, const char* what) {
  if (result != CUDA_SUCCESS) throw std::runtime_error(std::string(what) + " failed: " + describe(result));
}

size_t round_up(size_t bytes, size_t granularity) { return (bytes + granularity - 1) / granularity * granularity; }

}  // namespace

ToolDeviceMemory::ToolDeviceMemory(size_t bytes) {
  const DriverApi& api = driver_api();
  if (!api.missing.empty()) throw std::runtime_error("libcuda lacks " + api.missing);
  CUdevice device = 0;
  check(api.ctx_get_device(&device), "cuCtxGetDevice");
  CUmemAllocationProp properties{};
  properties.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  properties.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  properties.location.id = device;
  size_t granularity = 0;
  check(api.mem_get_allocation_granularity(&granularity, &properties, CU_MEM_ALLOC_GRANULARITY_MINIMUM),
        "cuMemGetAllocationGranularity");
  mapped_bytes_ = round_up(bytes, granularity);
  reserved_bytes_ = mapped_bytes_ + 2 * granularity;  // a guard before and after
  try {
    check(api.mem_address_reserve(&reserved_, reserved_bytes_, granularity, 0, 0), "cuMemAddressReserve");
    check(api.mem_create(&handle_, mapped_bytes_, &properties, 0), "cuMemCreate");
    has_handle_ = true;
    check(api.mem_map(reserved_ + granularity, mapped_bytes_, 0, handle_, 0), "cuMemMap");
    mapped_ = reserved_ + granularity;
    CUmemAccessDesc access{};
    access.location = properties.location;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    check(api.mem_set_access(mapped_, mapped_bytes_, &access, 1), "cuMemSetAccess");
  } catch (...) {
    release();
    throw;
  }
}

ToolDeviceMemory::~ToolDeviceMemory() {
  if (!forgotten_) release();
}

void ToolDeviceMemory::release() {
  const DriverApi& api = driver_api();
  if (mapped_ != 0) api.mem_unmap(mapped_, mapped_bytes_);
  if (has_handle_) api.mem_release(handle_);
  if (reserved_ != 0) api.mem_address_free(reserved_, reserved_bytes_);
  mapped_ = reserved_ = 0;
  has_handle_ = false;
}

}  // namespace barracuda::runtime
