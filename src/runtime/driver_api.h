#pragma once
// The driver functions the runtime itself calls, resolved from libcuda directly (never through the
// shim's wrappers, so the runtime's own calls are not mistaken for the application's).
#include <cudaTypedefs.h>

#include <string>

namespace barracuda::runtime {

struct DriverApi {
  PFN_cuCtxGetDevice_v2000 ctx_get_device = nullptr;
  PFN_cuDeviceGetAttribute_v2000 device_get_attribute = nullptr;
  PFN_cuDeviceGetName_v2000 device_get_name = nullptr;
  PFN_cuCtxGetCurrent_v4000 ctx_get_current = nullptr;
  // A context's id is never reused in the process, where its handle may be (cudaDeviceReset).
  PFN_cuCtxGetId_v12000 ctx_get_id = nullptr;
  PFN_cuMemHostAlloc_v2020 mem_host_alloc = nullptr;
  PFN_cuMemFreeHost_v2000 mem_free_host = nullptr;
  PFN_cuMemHostGetDevicePointer_v3020 mem_host_get_device_pointer = nullptr;
  PFN_cuPointerGetAttribute_v4000 pointer_get_attribute = nullptr;
  PFN_cuModuleGetGlobal_v3020 module_get_global = nullptr;
  PFN_cuLibraryGetGlobal_v12000 library_get_global = nullptr;
  // The tool's own device memory (runtime/tool_device_memory.h): an address range of its own.
  PFN_cuMemGetAllocationGranularity_v10020 mem_get_allocation_granularity = nullptr;
  PFN_cuMemAddressReserve_v10020 mem_address_reserve = nullptr;
  PFN_cuMemAddressFree_v10020 mem_address_free = nullptr;
  PFN_cuMemCreate_v10020 mem_create = nullptr;
  PFN_cuMemRelease_v10020 mem_release = nullptr;
  PFN_cuMemMap_v10020 mem_map = nullptr;
  PFN_cuMemUnmap_v10020 mem_unmap = nullptr;
  PFN_cuMemSetAccess_v10020 mem_set_access = nullptr;
  PFN_cuMemcpyHtoDAsync_v3020 memcpy_htod_async = nullptr;
  PFN_cuMemcpyHtoD_v3020 memcpy_htod = nullptr;  // the SASS back end's kernel entries, once each
  PFN_cuMemcpyDtoHAsync_v3020 memcpy_dtoh_async = nullptr;
  PFN_cuMemsetD8Async_v3020 memset_d8_async = nullptr;
  PFN_cuMemsetD32Async_v3020 memset_d32_async = nullptr;
  PFN_cuMemGetInfo_v3020 mem_get_info = nullptr;  // sizes the global-memory shadow's budget
  PFN_cuCtxSetCurrent_v4000 ctx_set_current = nullptr;
  // Several GPUs: each context's queues are set up with it current (ScopedContext).
  PFN_cuCtxPushCurrent_v4000 ctx_push_current = nullptr;
  PFN_cuCtxPopCurrent_v4000 ctx_pop_current = nullptr;
  PFN_cuDeviceGetCount_v2000 device_get_count = nullptr;
  PFN_cuDevicePrimaryCtxGetState_v7000 device_primary_ctx_get_state = nullptr;
  PFN_cuStreamGetCtx_v9020 stream_get_ctx = nullptr;
  // The launch-slot release kernel (device/launch_slot_release.cu), a module of the tool's own.
  PFN_cuModuleLoadData_v2000 module_load_data = nullptr;
  PFN_cuModuleUnload_v2000 module_unload = nullptr;
  PFN_cuModuleGetFunction_v2000 module_get_function = nullptr;
  PFN_cuFuncGetAttribute_v2020 func_get_attribute = nullptr;
  // The module of a launched function (SASS back end: was it patched?); a CUkernel first gives its function.
  PFN_cuFuncGetModule_v11000 func_get_module = nullptr;
  PFN_cuKernelGetFunction_v12000 kernel_get_function = nullptr;
  PFN_cuLaunchKernel_v4000 launch_kernel = nullptr;
  // Completion of checked launches, recorded after each in its own stream.
  PFN_cuEventCreate_v2000 event_create = nullptr;
  PFN_cuEventRecord_v2000 event_record = nullptr;
  PFN_cuEventQuery_v2000 event_query = nullptr;
  PFN_cuEventDestroy_v4000 event_destroy = nullptr;
  PFN_cuStreamCreate_v2000 stream_create = nullptr;
  PFN_cuStreamDestroy_v4000 stream_destroy = nullptr;
  PFN_cuStreamSynchronize_v2000 stream_synchronize = nullptr;
  PFN_cuStreamQuery_v2000 stream_query = nullptr;
  PFN_cuStreamGetFlags_v5050 stream_get_flags = nullptr;
  PFN_cuStreamIsCapturing_v10000 stream_is_capturing = nullptr;
  PFN_cuThreadExchangeStreamCaptureMode_v10010 thread_exchange_capture_mode = nullptr;
  PFN_cuGetErrorName_v6000 get_error_name = nullptr;

  // Names the first function libcuda did not provide, or is empty when all resolved.
  std::string missing;
};

// Resolved on first use; later calls return the same table.
const DriverApi& driver_api();

// "CUDA_ERROR_OUT_OF_MEMORY (2)" for messages.
std::string describe(CUresult result);

// Whether the application is capturing `stream` into a graph: then work issued into it only builds the
// graph, and barracuda must leave the stream alone (cuStreamGetFlags, a query or a synchronisation on
// it invalidates the capture). The legacy default stream is never asked: asking about it while a
// blocking stream captures is itself an implicit synchronisation.
bool stream_is_being_captured(CUstream stream);

// Makes `context` current on this thread for the object's life (nothing when it already is), then
// restores the thread's own: the tool's work on another GPU's queues from an application thread.
class ScopedContext {
 public:
  explicit ScopedContext(CUcontext context);
  ~ScopedContext();
  ScopedContext(const ScopedContext&) = delete;
  ScopedContext& operator=(const ScopedContext&) = delete;

 private:
  bool pushed_ = false;
};

// While one of the application's threads captures a stream into a graph in the default global mode,
// a potentially unsafe call of ours (allocation, synchronising our own stream) would be prohibited and
// would invalidate the application's capture; in relaxed mode this thread may make it. The thread's
// own mode is restored after. Our calls must still never touch a stream the application captures,
// nor the legacy default stream (which synchronises with every blocking stream, captured ones too).
class RelaxedCaptureMode {
 public:
  RelaxedCaptureMode() { exchange(); }
  ~RelaxedCaptureMode() { exchange(); }
  RelaxedCaptureMode(const RelaxedCaptureMode&) = delete;
  RelaxedCaptureMode& operator=(const RelaxedCaptureMode&) = delete;

 private:
  void exchange() {
    if (const auto swap = driver_api().thread_exchange_capture_mode) swap(&mode_);
  }
  CUstreamCaptureMode mode_ = CU_STREAM_CAPTURE_MODE_RELAXED;
};

}  // namespace barracuda::runtime
