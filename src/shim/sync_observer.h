#pragma once
// Notifications of the application's synchronisation calls, for the runtime's order of launches, and
// of context teardown. Each is sent from the calling thread after the driver call succeeded, except
// teardown, which is announced before the call (the context's memory must still be there).
#include <cuda.h>

namespace barracuda::shim {

enum class SyncKind : unsigned char {
  kEventRecorded,     // cuEventRecord(event, stream)
  kStreamWaitsEvent,  // cuStreamWaitEvent(stream, event)
  kHostWaitedStream,  // cuStreamSynchronize / a cuStreamQuery that found the stream idle; synchronous copies
  kHostWaitedEvent,   // cuEventSynchronize / a cuEventQuery that found the event complete
  kHostWaitedDevice,  // cuCtxSynchronize, cuMemFree
  kContextTeardown,   // cuDevicePrimaryCtxReset (cudaDeviceReset) of `device`, cuCtxDestroy of `context`
};

struct SyncEvent {
  SyncKind kind;
  CUstream stream = nullptr;
  CUevent event = nullptr;
  bool per_thread_stream = false;  // the call was a "_ptsz"/"_ptds" variant: stream 0 is the thread's own
  CUcontext context = nullptr;     // teardown by cuCtxDestroy
  CUdevice device = -1;            // teardown by cuDevicePrimaryCtxReset
};

class SyncObserver {
 public:
  virtual ~SyncObserver() = default;
  virtual void synchronized(const SyncEvent& event) = 0;
};

}  // namespace barracuda::shim
