// Synchronisation entry points: what the sync observers hear, and when they hear nothing.
#include <cudaTypedefs.h>
#include <gtest/gtest.h>

#include <vector>

#include "shim/driver_entry.h"
#include "shim/reentrancy_guard.h"
#include "shim/shim_runtime.h"

namespace barracuda::shim {
namespace {

class SyncRecorder final : public SyncObserver {
 public:
  static SyncRecorder& fresh() {
    static SyncRecorder* const instance = [] {
      auto* recorder = new SyncRecorder();
      add_sync_observer(*recorder);
      return recorder;
    }();
    instance->events.clear();
    return *instance;
  }
  void synchronized(const SyncEvent& event) override { events.push_back(event); }
  std::vector<SyncEvent> events;
};

CUresult next_result = CUDA_SUCCESS;
CUresult fake_stream(CUstream) { return next_result; }
CUresult fake_event(CUevent) { return next_result; }
CUresult fake_record(CUevent, CUstream) { return next_result; }
CUresult fake_wait(CUstream, CUevent, unsigned int) { return next_result; }
CUresult fake_ctx() { return next_result; }
CUresult fake_dtoh(void*, CUdeviceptr, size_t) { return next_result; }
CUresult fake_peer(CUdeviceptr, CUcontext, CUdeviceptr, CUcontext, size_t) { return next_result; }

// What the observer had heard when the driver's reset ran.
const SyncRecorder* reset_observer = nullptr;
size_t events_seen_by_reset = 0;
CUresult fake_reset(CUdevice) {
  events_seen_by_reset = reset_observer->events.size();
  return CUDA_SUCCESS;
}

template <typename Function>
Function wrap(HookedSymbol symbol, Function fake) {
  return reinterpret_cast<Function>(wrapper_for(symbol, reinterpret_cast<void*>(fake)));
}

const auto kStream = reinterpret_cast<CUstream>(0x5100);
const auto kEvent = reinterpret_cast<CUevent>(0xE100);

TEST(SyncHooks, EachCallIsAnnouncedWithItsStreamAndEvent) {
  SyncRecorder& recorder = SyncRecorder::fresh();
  next_result = CUDA_SUCCESS;
  EXPECT_EQ(wrap({Hook::EventRecord, false}, &fake_record)(kEvent, kStream), CUDA_SUCCESS);
  EXPECT_EQ(wrap({Hook::StreamWaitEvent, true}, &fake_wait)(nullptr, kEvent, 0), CUDA_SUCCESS);
  EXPECT_EQ(wrap({Hook::StreamSynchronize, false}, &fake_stream)(kStream), CUDA_SUCCESS);
  EXPECT_EQ(wrap({Hook::EventCompletion, false}, &fake_event)(kEvent), CUDA_SUCCESS);
  EXPECT_EQ(wrap({Hook::CtxSynchronize, false}, &fake_ctx)(), CUDA_SUCCESS);
  EXPECT_EQ(wrap({Hook::MemcpyDtoH, true}, &fake_dtoh)(nullptr, 0, 0), CUDA_SUCCESS);
  ASSERT_EQ(recorder.events.size(), 6u);
  EXPECT_EQ(recorder.events[0].kind, SyncKind::kEventRecorded);
  EXPECT_EQ(recorder.events[0].stream, kStream);
  EXPECT_EQ(recorder.events[0].event, kEvent);
  EXPECT_FALSE(recorder.events[0].per_thread_stream);
  EXPECT_EQ(recorder.events[1].kind, SyncKind::kStreamWaitsEvent);
  EXPECT_TRUE(recorder.events[1].per_thread_stream);
  EXPECT_EQ(recorder.events[2].kind, SyncKind::kHostWaitedStream);
  EXPECT_EQ(recorder.events[2].stream, kStream);
  EXPECT_EQ(recorder.events[3].kind, SyncKind::kHostWaitedEvent);
  EXPECT_EQ(recorder.events[3].event, kEvent);
  EXPECT_EQ(recorder.events[4].kind, SyncKind::kHostWaitedContext);
  EXPECT_EQ(recorder.events[4].context, nullptr);  // the calling thread's current context
  EXPECT_EQ(recorder.events[5].kind, SyncKind::kHostWaitedStream);
  EXPECT_EQ(recorder.events[5].stream, nullptr);
  EXPECT_TRUE(recorder.events[5].per_thread_stream);
}

TEST(SyncHooks, APeerCopyNamesBothContexts) {
  SyncRecorder& recorder = SyncRecorder::fresh();
  next_result = CUDA_SUCCESS;
  const auto destination = reinterpret_cast<CUcontext>(0xC1), source = reinterpret_cast<CUcontext>(0xC0);
  EXPECT_EQ(wrap({Hook::MemcpyPeer, false}, &fake_peer)(0x1000, destination, 0x2000, source, 64), CUDA_SUCCESS);
  ASSERT_EQ(recorder.events.size(), 1u);
  EXPECT_EQ(recorder.events[0].kind, SyncKind::kPeerCopy);
  EXPECT_EQ(recorder.events[0].context, destination);
  EXPECT_EQ(recorder.events[0].source_context, source);
}

TEST(SyncHooks, FailedOrUnfinishedCallsOrderNothing) {
  SyncRecorder& recorder = SyncRecorder::fresh();
  next_result = CUDA_ERROR_NOT_READY;  // cuStreamQuery on a busy stream
  EXPECT_EQ(wrap({Hook::StreamQuery, false}, &fake_stream)(kStream), CUDA_ERROR_NOT_READY);
  next_result = CUDA_ERROR_INVALID_HANDLE;
  EXPECT_EQ(wrap({Hook::EventRecord, false}, &fake_record)(kEvent, kStream), CUDA_ERROR_INVALID_HANDLE);
  EXPECT_TRUE(recorder.events.empty());
  next_result = CUDA_SUCCESS;
}

TEST(SyncHooks, CallsFromInsideAHookAreNotAnnounced) {
  SyncRecorder& recorder = SyncRecorder::fresh();
  ReentrancyGuard outer;
  EXPECT_EQ(wrap({Hook::CtxSynchronize, false}, &fake_ctx)(), CUDA_SUCCESS);
  EXPECT_TRUE(recorder.events.empty());
}

TEST(SyncHooks, TeardownIsAnnouncedBeforeTheDriverCall) {
  SyncRecorder& recorder = SyncRecorder::fresh();
  reset_observer = &recorder;
  events_seen_by_reset = 0;
  EXPECT_EQ(wrap({Hook::DevicePrimaryCtxReset, false}, &fake_reset)(3), CUDA_SUCCESS);
  EXPECT_EQ(events_seen_by_reset, 1u);
  ASSERT_EQ(recorder.events.size(), 1u);
  EXPECT_EQ(recorder.events[0].kind, SyncKind::kContextTeardown);
  EXPECT_EQ(recorder.events[0].device, 3);
  EXPECT_EQ(recorder.events[0].context, nullptr);
}

TEST(SyncHooks, ProcRequestsForTeardownPickTheCurrentSignatures) {
  EXPECT_EQ(hook_for_proc_request("cuDevicePrimaryCtxReset", 13000, 0),
            (HookedSymbol{Hook::DevicePrimaryCtxReset, false}));
  EXPECT_EQ(hook_for_proc_request("cuDevicePrimaryCtxReset", 10020, 0), std::nullopt);
  EXPECT_EQ(hook_for_proc_request("cuCtxDestroy", 13000, 0), (HookedSymbol{Hook::CtxDestroy, false}));
}

}  // namespace
}  // namespace barracuda::shim
