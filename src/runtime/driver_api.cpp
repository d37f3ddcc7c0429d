#include "runtime/driver_api.h"

#include "shim/real_driver.h"

namespace barracuda::runtime {
namespace {

template <typename Function>
void resolve(Function& slot, const char* exported_name, std::string& missing) {
  slot = reinterpret_cast<Function>(shim::libcuda_symbol(exported_name));
  if (slot == nullptr && missing.empty()) missing = exported_name;
}

DriverApi resolve_all() {
  DriverApi api;
  resolve(api.ctx_get_device, "cuCtxGetDevice", api.missing);
  resolve(api.device_get_attribute, "cuDeviceGetAttribute", api.missing);
  resolve(api.device_get_name, "cuDeviceGetName", api.missing);
  resolve(api.ctx_get_current, "cuCtxGetCurrent", api.missing);
  resolve(api.ctx_get_id, "cuCtxGetId", api.missing);
  resolve(api.mem_host_alloc, "cuMemHostAlloc", api.missing);
  resolve(api.mem_free_host, "cuMemFreeHost", api.missing);
  resolve(api.mem_host_get_device_pointer, "cuMemHostGetDevicePointer_v2", api.missing);
  resolve(api.pointer_get_attribute, "cuPointerGetAttribute", api.missing);
  resolve(api.module_get_global, "cuModuleGetGlobal_v2", api.missing);
  resolve(api.library_get_global, "cuLibraryGetGlobal", api.missing);
  resolve(api.mem_get_allocation_granularity, "cuMemGetAllocationGranularity", api.missing);
  resolve(api.mem_address_reserve, "cuMemAddressReserve", api.missing);
  resolve(api.mem_address_free, "cuMemAddressFree", api.missing);
  resolve(api.mem_create, "cuMemCreate", api.missing);
  resolve(api.mem_release, "cuMemRelease", api.missing);
  resolve(api.mem_map, "cuMemMap", api.missing);
  resolve(api.mem_unmap, "cuMemUnmap", api.missing);
  resolve(api.mem_set_access, "cuMemSetAccess", api.missing);
  resolve(api.memcpy_htod_async, "cuMemcpyHtoDAsync_v2", api.missing);
  resolve(api.memset_d8_async, "cuMemsetD8Async", api.missing);
  resolve(api.memset_d32_async, "cuMemsetD32Async", api.missing);
  resolve(api.ctx_set_current, "cuCtxSetCurrent", api.missing);
  resolve(api.ctx_push_current, "cuCtxPushCurrent_v2", api.missing);
  resolve(api.ctx_pop_current, "cuCtxPopCurrent_v2", api.missing);
  resolve(api.device_get_count, "cuDeviceGetCount", api.missing);
  resolve(api.device_primary_ctx_get_state, "cuDevicePrimaryCtxGetState", api.missing);
  resolve(api.stream_get_ctx, "cuStreamGetCtx", api.missing);
  resolve(api.module_load_data, "cuModuleLoadData", api.missing);
  resolve(api.module_unload, "cuModuleUnload", api.missing);
  resolve(api.module_get_function, "cuModuleGetFunction", api.missing);
  resolve(api.func_get_attribute, "cuFuncGetAttribute", api.missing);
  resolve(api.func_get_module, "cuFuncGetModule", api.missing);
  resolve(api.kernel_get_function, "cuKernelGetFunction", api.missing);
  resolve(api.launch_kernel, "cuLaunchKernel", api.missing);
  resolve(api.event_create, "cuEventCreate", api.missing);
  resolve(api.event_record, "cuEventRecord", api.missing);
  resolve(api.event_query, "cuEventQuery", api.missing);
  resolve(api.event_destroy, "cuEventDestroy_v2", api.missing);
  resolve(api.memcpy_htod, "cuMemcpyHtoD_v2", api.missing);
  resolve(api.memcpy_dtoh_async, "cuMemcpyDtoHAsync_v2", api.missing);
  resolve(api.stream_create, "cuStreamCreate", api.missing);
  resolve(api.stream_destroy, "cuStreamDestroy_v2", api.missing);
  resolve(api.stream_synchronize, "cuStreamSynchronize", api.missing);
  resolve(api.stream_query, "cuStreamQuery", api.missing);
  resolve(api.mem_get_info, "cuMemGetInfo_v2", api.missing);
  resolve(api.stream_get_flags, "cuStreamGetFlags", api.missing);
  resolve(api.stream_is_capturing, "cuStreamIsCapturing", api.missing);
  resolve(api.thread_exchange_capture_mode, "cuThreadExchangeStreamCaptureMode", api.missing);
  resolve(api.get_error_name, "cuGetErrorName", api.missing);
  return api;
}

}  // namespace

const DriverApi& driver_api() {
  static const DriverApi api = resolve_all();
  return api;
}

bool stream_is_being_captured(CUstream stream) {
  if (stream == nullptr || stream == CU_STREAM_LEGACY) return false;
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  const DriverApi& api = driver_api();
  return api.stream_is_capturing != nullptr && api.stream_is_capturing(stream, &status) == CUDA_SUCCESS &&
         status != CU_STREAM_CAPTURE_STATUS_NONE;
}

std::string describe(CUresult result) {
  const char* name = nullptr;
  const DriverApi& api = driver_api();
  if (api.get_error_name == nullptr || api.get_error_name(result, &name) != CUDA_SUCCESS || name == nullptr) {
    name = "CUDA error";
  }
  return std::string(name) + " (" + std::to_string(static_cast<int>(result)) + ")";
}

ScopedContext::ScopedContext(CUcontext context) {
  const DriverApi& api = driver_api();
  CUcontext current = nullptr;
  if (context == nullptr || api.ctx_get_current(&current) != CUDA_SUCCESS || current == context) return;
  pushed_ = api.ctx_push_current(context) == CUDA_SUCCESS;
}

ScopedContext::~ScopedContext() {
  CUcontext popped = nullptr;
  if (pushed_) driver_api().ctx_pop_current(&popped);
}

}  // namespace barracuda::runtime
