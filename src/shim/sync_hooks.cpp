// Synchronisation entry points are announced to the sync observers once the driver call succeeded:
// only then did the ordering they establish take effect.
#include "shim/interceptors.h"
#include "shim/memory_hooks.h"
#include "shim/reentrancy_guard.h"
#include "shim/shim_runtime.h"

namespace barracuda::shim {
namespace {

// `call()` performs the driver call.
template <typename Call>
CUresult observe_sync(const DriverEntry& entry, SyncEvent event, Call&& call) {
  ReentrancyGuard guard;
  const CUresult result = call();
  ShimRuntime& runtime = shim_runtime();
  if (result != CUDA_SUCCESS || guard.nested() || runtime.sync_observers.empty()) return result;
  event.per_thread_stream = entry.symbol.per_thread_stream;
  runtime.sync_observers.for_each([&](SyncObserver& observer) { observer.synchronized(event); });
  return result;
}

// A synchronous copy runs on the default stream (the thread's own for "_ptds") and returns once done.
template <typename Function, typename... Args>
CUresult synchronous_copy(const DriverEntry& entry, Args... args) {
  return observe_sync(entry, {SyncKind::kHostWaitedStream}, [&] { return entry.real_as<Function>()(args...); });
}

// Teardown is announced first: observers release what they hold in the context while it still exists.
template <typename Call>
CUresult announce_teardown(SyncEvent event, Call&& call) {
  ReentrancyGuard guard;
  ShimRuntime& runtime = shim_runtime();
  if (!guard.nested()) runtime.sync_observers.for_each([&](SyncObserver& observer) { observer.synchronized(event); });
  return call();
}

}  // namespace

CUresult intercept_device_primary_ctx_reset(const DriverEntry& entry, CUdevice device) {
  SyncEvent event{SyncKind::kContextTeardown};
  event.device = device;
  return announce_teardown(event, [&] { return entry.real_as<PFN_cuDevicePrimaryCtxReset_v11000>()(device); });
}

CUresult intercept_device_primary_ctx_release(const DriverEntry& entry, CUdevice device) {
  SyncEvent event{SyncKind::kContextRelease};
  event.device = device;
  return announce_teardown(event, [&] { return entry.real_as<PFN_cuDevicePrimaryCtxRelease_v11000>()(device); });
}

CUresult intercept_ctx_destroy(const DriverEntry& entry, CUcontext context) {
  SyncEvent event{SyncKind::kContextTeardown};
  event.context = context;
  return announce_teardown(event, [&] { return entry.real_as<PFN_cuCtxDestroy_v4000>()(context); });
}

CUresult intercept_ctx_synchronize(const DriverEntry& entry) {
  return observe_sync(entry, {SyncKind::kHostWaitedContext},
                      [&] { return entry.real_as<PFN_cuCtxSynchronize_v2000>()(); });
}

CUresult intercept_ctx_synchronize_v2(const DriverEntry& entry, CUcontext context) {
  SyncEvent waited{SyncKind::kHostWaitedContext};
  waited.context = context;
  return observe_sync(entry, waited,
                      [&] { return entry.real_as<PFN_cuCtxSynchronize_v13000>()(context); });
}

CUresult intercept_stream_completion(const DriverEntry& entry, CUstream stream) {
  return observe_sync(entry, {SyncKind::kHostWaitedStream, stream},
                      [&] { return entry.real_as<PFN_cuStreamSynchronize_v2000>()(stream); });
}

CUresult intercept_event_completion(const DriverEntry& entry, CUevent event) {
  return observe_sync(entry, {SyncKind::kHostWaitedEvent, nullptr, event},
                      [&] { return entry.real_as<PFN_cuEventSynchronize_v2000>()(event); });
}

CUresult intercept_event_record(const DriverEntry& entry, CUevent event, CUstream stream) {
  return observe_sync(entry, {SyncKind::kEventRecorded, stream, event},
                      [&] { return entry.real_as<PFN_cuEventRecord_v2000>()(event, stream); });
}

CUresult intercept_event_record_with_flags(const DriverEntry& entry, CUevent event, CUstream stream,
                                           unsigned int flags) {
  return observe_sync(entry, {SyncKind::kEventRecorded, stream, event},
                      [&] { return entry.real_as<PFN_cuEventRecordWithFlags_v11010>()(event, stream, flags); });
}

CUresult intercept_stream_wait_event(const DriverEntry& entry, CUstream stream, CUevent event, unsigned int flags) {
  return observe_sync(entry, {SyncKind::kStreamWaitsEvent, stream, event},
                      [&] { return entry.real_as<PFN_cuStreamWaitEvent_v3020>()(stream, event, flags); });
}

CUresult intercept_memcpy_htod(const DriverEntry& entry, CUdeviceptr destination, const void* source, size_t bytes) {
  return synchronous_copy<PFN_cuMemcpyHtoD_v3020>(entry, destination, source, bytes);
}

CUresult intercept_memcpy_dtoh(const DriverEntry& entry, void* destination, CUdeviceptr source, size_t bytes) {
  return synchronous_copy<PFN_cuMemcpyDtoH_v3020>(entry, destination, source, bytes);
}

CUresult intercept_memcpy_peer(const DriverEntry& entry, CUdeviceptr destination, CUcontext destination_context,
                               CUdeviceptr source, CUcontext source_context, size_t bytes) {
  SyncEvent copied{SyncKind::kPeerCopy};
  copied.context = destination_context;
  copied.source_context = source_context;
  return observe_sync(entry, copied, [&] {
    return entry.real_as<PFN_cuMemcpyPeer_v4000>()(destination, destination_context, source, source_context, bytes);
  });
}

CUresult intercept_mem_free(const DriverEntry& entry, CUdeviceptr pointer) {
  const CUresult result = observe_sync(entry, {SyncKind::kHostWaitedDevice},
                                       [&] { return entry.real_as<PFN_cuMemFree_v3020>()(pointer); });
  if (result == CUDA_SUCCESS) announce_release({entry.symbol, pointer, 0});
  return result;
}

CUresult intercept_memcpy_device(const DriverEntry& entry, CUdeviceptr destination, CUdeviceptr source,
                                 size_t bytes) {
  return synchronous_copy<PFN_cuMemcpy_v4000>(entry, destination, source, bytes);
}

}  // namespace barracuda::shim
