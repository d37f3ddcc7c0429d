// Device memory entry points: what the memory observers hear (with the caller's host stack), and when
// they hear nothing.
#include <cudaTypedefs.h>
#include <gtest/gtest.h>

#include <vector>

#include "shim/driver_entry.h"
#include "shim/real_driver.h"
#include "shim/shim_runtime.h"

namespace barracuda::shim {
namespace {

class MemoryRecorder final : public MemoryObserver {
 public:
  static MemoryRecorder& fresh() {
    static MemoryRecorder* const instance = [] {
      auto* recorder = new MemoryRecorder();
      add_memory_observer(*recorder);
      return recorder;
    }();
    *instance = MemoryRecorder();
    return *instance;
  }
  void on_allocation(const DeviceAllocation& allocation) override { allocations.push_back(allocation); }
  void on_release(const DeviceRelease& release) override { releases.push_back(release); }
  void on_unload(const LoadedHandle& handle) override { unloads.push_back(handle); }
  std::vector<DeviceAllocation> allocations;
  std::vector<DeviceRelease> releases;
  std::vector<LoadedHandle> unloads;
};

CUresult next_result = CUDA_SUCCESS;
CUresult fake_alloc(CUdeviceptr* pointer, size_t) {
  *pointer = 0x7f0000001000;
  return next_result;
}
CUresult fake_pitch(CUdeviceptr* pointer, size_t* pitch, size_t, size_t, unsigned int) {
  *pointer = 0x7f0000002000;
  *pitch = 512;
  return next_result;
}
CUresult fake_free(CUdeviceptr) { return next_result; }
CUresult fake_unmap(CUdeviceptr, size_t) { return next_result; }
CUresult fake_unload(CUmodule) { return next_result; }

template <typename Function>
Function wrapped(Hook hook, Function real) {
  return reinterpret_cast<Function>(wrapper_for({hook, false}, reinterpret_cast<void*>(real)));
}

TEST(MemoryHooks, AnAllocationIsAnnouncedWithItsSizeAndTheCallersStackAndItsFreeToo) {
  MemoryRecorder& recorder = MemoryRecorder::fresh();
  next_result = CUDA_SUCCESS;
  CUdeviceptr pointer = 0;
  ASSERT_EQ(wrapped(Hook::MemAlloc, &fake_alloc)(&pointer, 804), CUDA_SUCCESS);
  ASSERT_EQ(recorder.allocations.size(), 1u);
  const DeviceAllocation& allocation = recorder.allocations[0];
  EXPECT_EQ(allocation.entry.hook, Hook::MemAlloc);
  EXPECT_EQ(allocation.base, 0x7f0000001000u);
  EXPECT_EQ(allocation.size, 804u);
  // The shim is linked into this test, so this test's own frames are skipped with the shim's: the stack
  // starts at the first frame in another object (gtest's runner, or libc's start), never in a hook.
  if (allocation.allocated_by.depth != 0) EXPECT_FALSE(is_shim_address(allocation.allocated_by.return_addresses[0]));
  ASSERT_EQ(wrapped(Hook::MemFree, &fake_free)(pointer), CUDA_SUCCESS);
  ASSERT_EQ(recorder.releases.size(), 1u);
  EXPECT_EQ(recorder.releases[0].base, 0x7f0000001000u);
  EXPECT_EQ(recorder.releases[0].size, 0u);
}

TEST(MemoryHooks, APitchedAllocationCoversPitchTimesHeight) {
  MemoryRecorder& recorder = MemoryRecorder::fresh();
  next_result = CUDA_SUCCESS;
  CUdeviceptr pointer = 0;
  size_t pitch = 0;
  ASSERT_EQ(wrapped(Hook::MemAllocPitch, &fake_pitch)(&pointer, &pitch, 500, 3, 4), CUDA_SUCCESS);
  ASSERT_EQ(recorder.allocations.size(), 1u);
  EXPECT_EQ(recorder.allocations[0].size, 512u * 3);
}

TEST(MemoryHooks, FailedCallsAreNotAnnouncedUnloadsAreBeforeTheCall) {
  MemoryRecorder& recorder = MemoryRecorder::fresh();
  next_result = CUDA_ERROR_OUT_OF_MEMORY;
  CUdeviceptr pointer = 0;
  EXPECT_EQ(wrapped(Hook::MemAlloc, &fake_alloc)(&pointer, 804), CUDA_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(wrapped(Hook::MemUnmap, &fake_unmap)(0x7f0000001000, 4096), CUDA_ERROR_OUT_OF_MEMORY);
  EXPECT_TRUE(recorder.allocations.empty());
  EXPECT_TRUE(recorder.releases.empty());
  auto* module = reinterpret_cast<CUmodule>(0x1234);
  EXPECT_EQ(wrapped(Hook::ModuleUnload, &fake_unload)(module), CUDA_ERROR_OUT_OF_MEMORY);
  ASSERT_EQ(recorder.unloads.size(), 1u);
  EXPECT_EQ(recorder.unloads[0].module, module);
  next_result = CUDA_SUCCESS;
}

}  // namespace
}  // namespace barracuda::shim
