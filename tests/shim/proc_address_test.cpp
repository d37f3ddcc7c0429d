// cuGetProcAddress forwarding, against a fake driver table.
#include <cudaTypedefs.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "recording_observer.h"
#include "shim/driver_entry.h"

namespace barracuda::shim {
namespace {

struct ProcRequest {
  std::string symbol;
  int version;
  cuuint64_t flags;
};

struct FakeLaunch {
  const char* variant;
  CUfunction function;
  unsigned grid_x, block_x, shared;
  CUstream stream;
};

std::vector<ProcRequest> requests;
std::vector<FakeLaunch> fake_launches;
bool launch_signature_changed_after_known_version = false;

CUresult fake_launch(CUfunction f, unsigned gx, unsigned, unsigned, unsigned bx, unsigned, unsigned, unsigned shared,
                     CUstream stream, void**, void**) {
  fake_launches.push_back({"legacy", f, gx, bx, shared, stream});
  return CUDA_SUCCESS;
}
CUresult fake_launch_per_thread(CUfunction f, unsigned gx, unsigned, unsigned, unsigned bx, unsigned, unsigned,
                                unsigned shared, CUstream stream, void**, void**) {
  fake_launches.push_back({"per-thread", f, gx, bx, shared, stream});
  return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
}
CUresult fake_future_launch(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                            CUstream, void**, void**) {
  return CUDA_SUCCESS;
}
CUresult fake_mem_get_info(size_t*, size_t*) { return CUDA_SUCCESS; }

void* fake_lookup(const std::string& symbol, int version, cuuint64_t flags);

CUresult fake_get_proc_address(const char* symbol, void** function, int version, cuuint64_t flags) {
  requests.push_back({symbol, version, flags});
  *function = fake_lookup(symbol, version, flags);
  return *function != nullptr ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

CUresult fake_get_proc_address_v2(const char* symbol, void** function, int version, cuuint64_t flags,
                                  CUdriverProcAddressQueryResult* status) {
  CUresult result = fake_get_proc_address(symbol, function, version, flags);
  *status = result == CUDA_SUCCESS ? CU_GET_PROC_ADDRESS_SUCCESS : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  return result;
}

void* fake_lookup(const std::string& symbol, int version, cuuint64_t flags) {
  if (symbol == "cuLaunchKernel") {
    if (launch_signature_changed_after_known_version && version > CUDA_VERSION) {
      return reinterpret_cast<void*>(&fake_future_launch);
    }
    bool per_thread = (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) != 0;
    return per_thread ? reinterpret_cast<void*>(&fake_launch_per_thread) : reinterpret_cast<void*>(&fake_launch);
  }
  if (symbol == "cuMemGetInfo") return reinterpret_cast<void*>(&fake_mem_get_info);
  if (symbol == "cuGetProcAddress") {
    return version >= 12000 ? reinterpret_cast<void*>(&fake_get_proc_address_v2)
                            : reinterpret_cast<void*>(&fake_get_proc_address);
  }
  return nullptr;
}

class ProcAddressTest : public ::testing::Test {
 protected:
  void SetUp() override {
    requests.clear();
    fake_launches.clear();
    launch_signature_changed_after_known_version = false;
  }

  // What the application gets from dlsym(libcuda, "cuGetProcAddress_v2") under the shim.
  PFN_cuGetProcAddress_v12000 get_proc_address =
      reinterpret_cast<PFN_cuGetProcAddress_v12000>(wrapper_for({Hook::GetProcAddressV2, false},
                                                                reinterpret_cast<void*>(&fake_get_proc_address_v2)));

  void* lookup(const char* symbol, int version, cuuint64_t flags) {
    void* function = nullptr;
    CUdriverProcAddressQueryResult status{};
    EXPECT_EQ(get_proc_address(symbol, &function, version, flags, &status), CUDA_SUCCESS) << symbol;
    EXPECT_EQ(status, CU_GET_PROC_ADDRESS_SUCCESS);
    return function;
  }
};

TEST_F(ProcAddressTest, ForwardsTheCallersVersionAndFlagsUnchanged) {
  constexpr cuuint64_t per_thread = CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM;
  lookup("cuLaunchKernel", 11040, per_thread);
  lookup("cuMemGetInfo", 3020, CU_GET_PROC_ADDRESS_LEGACY_STREAM);
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].symbol, "cuLaunchKernel");
  EXPECT_EQ(requests[0].version, 11040);
  EXPECT_EQ(requests[0].flags, per_thread);
  EXPECT_EQ(requests[1].version, 3020);
  EXPECT_EQ(requests[1].flags, cuuint64_t{CU_GET_PROC_ADDRESS_LEGACY_STREAM});
}

TEST_F(ProcAddressTest, SymbolsTheShimDoesNotWrapComeBackAsTheDriverGaveThem) {
  EXPECT_EQ(lookup("cuMemGetInfo", 12000, 0), reinterpret_cast<void*>(&fake_mem_get_info));
}

TEST_F(ProcAddressTest, FailedLookupsAreReturnedUntouched) {
  void* function = reinterpret_cast<void*>(&fake_mem_get_info);
  CUdriverProcAddressQueryResult status{};
  EXPECT_EQ(get_proc_address("cuNoSuchFunction", &function, 12000, 0, &status), CUDA_ERROR_NOT_FOUND);
  EXPECT_EQ(function, nullptr);
  EXPECT_EQ(status, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
}

TEST_F(ProcAddressTest, LegacyAndPerThreadLaunchesGetTheirOwnStableWrappers) {
  void* legacy = lookup("cuLaunchKernel", 12000, CU_GET_PROC_ADDRESS_LEGACY_STREAM);
  void* per_thread = lookup("cuLaunchKernel", 12000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM);
  EXPECT_NE(legacy, reinterpret_cast<void*>(&fake_launch));
  EXPECT_NE(per_thread, reinterpret_cast<void*>(&fake_launch_per_thread));
  EXPECT_NE(legacy, per_thread);
  EXPECT_EQ(lookup("cuLaunchKernel", 12080, 0), legacy);
}

TEST_F(ProcAddressTest, WrappedLaunchReachesTheRightDriverFunctionAndIsObserved) {
  auto& observer = testing::RecordingObserver::fresh();
  auto legacy = reinterpret_cast<PFN_cuLaunchKernel_v4000>(lookup("cuLaunchKernel", 12000, 0));
  auto per_thread = reinterpret_cast<PFN_cuLaunchKernel_v7000_ptsz>(
      lookup("cuLaunchKernel", 12000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM));
  auto function = reinterpret_cast<CUfunction>(0x1000);
  shim_runtime().kernels.add_named(function, ModuleId{9}, "_Z4fakev");  // so the driver is not asked
  auto stream = reinterpret_cast<CUstream>(0x2000);
  EXPECT_EQ(legacy(function, 7, 1, 1, 64, 1, 1, 256, stream, nullptr, nullptr), CUDA_SUCCESS);
  EXPECT_EQ(per_thread(function, 3, 1, 1, 32, 1, 1, 0, nullptr, nullptr, nullptr), CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);

  ASSERT_EQ(fake_launches.size(), 2u);
  EXPECT_STREQ(fake_launches[0].variant, "legacy");
  EXPECT_EQ(fake_launches[0].function, function);
  EXPECT_EQ(fake_launches[0].grid_x, 7u);
  EXPECT_EQ(fake_launches[0].block_x, 64u);
  EXPECT_EQ(fake_launches[0].shared, 256u);
  EXPECT_EQ(fake_launches[0].stream, stream);
  EXPECT_STREQ(fake_launches[1].variant, "per-thread");

  EXPECT_EQ(observer.launches_begun, 2);
  ASSERT_EQ(observer.launches.size(), 2u);
  EXPECT_EQ(observer.launches[0].entry, (HookedSymbol{Hook::LaunchKernel, false}));
  EXPECT_EQ(observer.launches[0].kernel_name, "_Z4fakev");
  EXPECT_EQ(observer.launches[0].module, ModuleId{9});
  EXPECT_EQ(observer.launches[0].grid.x, 7u);
  EXPECT_EQ(observer.launches[0].block.x, 64u);
  EXPECT_EQ(observer.launches[0].shared_mem_bytes, 256u);
  EXPECT_EQ(observer.launches[0].stream, stream);
  EXPECT_EQ(observer.launches[0].result, CUDA_SUCCESS);
  EXPECT_EQ(observer.launches[1].entry, (HookedSymbol{Hook::LaunchKernel, true}));
  EXPECT_EQ(observer.launches[1].result, CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
}

TEST_F(ProcAddressTest, NewerVersionIsWrappedOnlyWhileTheDriverFunctionIsTheKnownOne) {
  void* same = lookup("cuLaunchKernel", CUDA_VERSION + 1000, 0);
  EXPECT_NE(same, reinterpret_cast<void*>(&fake_launch));
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[1].version, CUDA_VERSION);

  launch_signature_changed_after_known_version = true;
  EXPECT_EQ(lookup("cuLaunchKernel", CUDA_VERSION + 1000, 0), reinterpret_cast<void*>(&fake_future_launch));
}

TEST_F(ProcAddressTest, GetProcAddressItselfIsWrappedWithTheSignatureOfTheRequestedVersion) {
  auto v2 = reinterpret_cast<PFN_cuGetProcAddress_v12000>(lookup("cuGetProcAddress", 12000, 0));
  auto v1 = reinterpret_cast<PFN_cuGetProcAddress_v11030>(lookup("cuGetProcAddress", 11030, 0));
  EXPECT_NE(reinterpret_cast<void*>(v2), reinterpret_cast<void*>(&fake_get_proc_address_v2));
  EXPECT_NE(reinterpret_cast<void*>(v1), reinterpret_cast<void*>(&fake_get_proc_address));

  void* through_v1 = nullptr;
  EXPECT_EQ(v1("cuLaunchKernel", &through_v1, 11030, 0), CUDA_SUCCESS);
  EXPECT_EQ(through_v1, lookup("cuLaunchKernel", 12000, 0));
  void* through_v2 = nullptr;
  CUdriverProcAddressQueryResult status{};
  EXPECT_EQ(v2("cuMemGetInfo", &through_v2, 12000, 0, &status), CUDA_SUCCESS);
  EXPECT_EQ(through_v2, reinterpret_cast<void*>(&fake_mem_get_info));
}

}  // namespace
}  // namespace barracuda::shim
