#include "shim/hook_symbols.h"

#include <gtest/gtest.h>

namespace barracuda::shim {
namespace {

TEST(HookSymbols, ExportedNamesIncludingPerThreadAndVersionedVariants) {
  EXPECT_EQ(hook_for_exported_symbol("cuLaunchKernel"), (HookedSymbol{Hook::LaunchKernel, false}));
  EXPECT_EQ(hook_for_exported_symbol("cuLaunchKernel_ptsz"), (HookedSymbol{Hook::LaunchKernel, true}));
  EXPECT_EQ(hook_for_exported_symbol("cuLaunchKernelEx_ptsz"), (HookedSymbol{Hook::LaunchKernelEx, true}));
  EXPECT_EQ(hook_for_exported_symbol("cuLaunchCooperativeKernel_ptsz"),
            (HookedSymbol{Hook::LaunchCooperativeKernel, true}));
  EXPECT_EQ(hook_for_exported_symbol("cuGetProcAddress"), (HookedSymbol{Hook::GetProcAddress, false}));
  EXPECT_EQ(hook_for_exported_symbol("cuGetProcAddress_v2"), (HookedSymbol{Hook::GetProcAddressV2, false}));
  EXPECT_EQ(hook_for_exported_symbol("cuLinkAddData"), (HookedSymbol{Hook::LinkAddData, false}));
  EXPECT_EQ(hook_for_exported_symbol("cuLinkAddData_v2"), (HookedSymbol{Hook::LinkAddData, false}));
  EXPECT_EQ(hook_for_exported_symbol("cuLibraryLoadData"), (HookedSymbol{Hook::LibraryLoadData, false}));
}

// cuda.h #defines these names to their newest versions; the list means libcuda's original exports.
TEST(HookSymbols, NamesCudaHeaderRenamesAreTheOriginalExports) {
  EXPECT_EQ(hook_for_exported_symbol("cuLinkAddFile"), (HookedSymbol{Hook::LinkAddFile, false}));
  EXPECT_EQ(hook_for_exported_symbol("cuGraphExecKernelNodeSetParams"),
            (HookedSymbol{Hook::GraphExecKernelNodeSetParamsV1, false}));
  EXPECT_EQ(hook_for_exported_symbol("cuGraphExecUpdate"), (HookedSymbol{Hook::GraphExecUpdateV1, false}));
}

// Every entry of hooked_entry_points.inc names a legacy-stream export that leads back to its hook.
TEST(HookSymbols, EveryHookHasAnExportedName) {
  for (std::size_t index = 0; index < kHookCount; ++index) {
    const HookedSymbol legacy{static_cast<Hook>(index), false};
    const std::string_view name = exported_name(legacy);
    ASSERT_FALSE(name.empty()) << "hook " << index;
    EXPECT_EQ(hook_for_exported_symbol(name), legacy) << name;
  }
}

TEST(HookSymbols, UnknownOrUnlistedVariantsAreNotWrapped) {
  for (const char* name : {"cuMemGetInfo_v2", "cuLaunchKernel_v2", "cuLaunchKernel_ptds", "cuModuleLoadData_ptsz",
                           "cuGetProcAddress_v3", "cuLaunch", "", "cuLaunchKernelX"}) {
    EXPECT_EQ(hook_for_exported_symbol(name), std::nullopt) << name;
  }
}

TEST(HookSymbols, ProcRequestVersionPicksTheGetProcAddressSignature) {
  EXPECT_EQ(hook_for_proc_request("cuGetProcAddress", 11030, 0), (HookedSymbol{Hook::GetProcAddress, false}));
  EXPECT_EQ(hook_for_proc_request("cuGetProcAddress", 11080, 0), (HookedSymbol{Hook::GetProcAddress, false}));
  EXPECT_EQ(hook_for_proc_request("cuGetProcAddress", 12000, 0), (HookedSymbol{Hook::GetProcAddressV2, false}));
  EXPECT_EQ(hook_for_proc_request("cuGetProcAddress", 13000, 0), (HookedSymbol{Hook::GetProcAddressV2, false}));
}

TEST(HookSymbols, ProcRequestFlagsPickThePerThreadStreamVariantOfLaunchesOnly) {
  constexpr cuuint64_t per_thread = CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM;
  EXPECT_EQ(hook_for_proc_request("cuLaunchKernel", 13000, per_thread), (HookedSymbol{Hook::LaunchKernel, true}));
  EXPECT_EQ(hook_for_proc_request("cuLaunchKernel", 13000, CU_GET_PROC_ADDRESS_LEGACY_STREAM),
            (HookedSymbol{Hook::LaunchKernel, false}));
  EXPECT_EQ(hook_for_proc_request("cuLaunchKernel", 13000, CU_GET_PROC_ADDRESS_DEFAULT),
            (HookedSymbol{Hook::LaunchKernel, false}));
  EXPECT_EQ(hook_for_proc_request("cuLaunchCooperativeKernel", 12000, per_thread),
            (HookedSymbol{Hook::LaunchCooperativeKernel, true}));
  EXPECT_EQ(hook_for_proc_request("cuModuleLoadData", 13000, per_thread), (HookedSymbol{Hook::ModuleLoadData, false}));
}

TEST(HookSymbols, ProcRequestVersionPicksTheSignatureOfSynchronisationEntryPoints) {
  constexpr cuuint64_t per_thread = CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM;
  EXPECT_EQ(hook_for_proc_request("cuCtxSynchronize", 12080, 0), (HookedSymbol{Hook::CtxSynchronize, false}));
  EXPECT_EQ(hook_for_proc_request("cuCtxSynchronize", 13000, 0), (HookedSymbol{Hook::CtxSynchronizeV2, false}));
  EXPECT_EQ(hook_for_proc_request("cuMemcpyHtoD", 13000, per_thread), (HookedSymbol{Hook::MemcpyHtoD, true}));
  EXPECT_EQ(hook_for_proc_request("cuMemcpyDtoD", 13000, 0), (HookedSymbol{Hook::MemcpyDtoD, false}));
  EXPECT_EQ(hook_for_proc_request("cuMemcpyHtoD", 3000, 0), std::nullopt);  // 32-bit device pointers
  EXPECT_EQ(hook_for_proc_request("cuStreamSynchronize", 13000, per_thread),
            (HookedSymbol{Hook::StreamSynchronize, true}));
  EXPECT_EQ(hook_for_proc_request("cuEventQuery", 13000, per_thread), (HookedSymbol{Hook::EventCompletion, false}));
  EXPECT_EQ(hook_for_exported_symbol("cuMemcpy_ptds"), (HookedSymbol{Hook::Memcpy, true}));
  EXPECT_EQ(hook_for_exported_symbol("cuMemcpyHtoD"), std::nullopt);
  EXPECT_EQ(hook_for_proc_request("cuMemFree", 13000, per_thread), (HookedSymbol{Hook::MemFree, false}));
}

TEST(HookSymbols, ProcRequestsUseBaseNames) {
  EXPECT_EQ(hook_for_proc_request("cuLaunchKernel_ptsz", 13000, 0), std::nullopt);
  EXPECT_EQ(hook_for_proc_request("cuMemAllocAsync_ptsz", 13000, 0), std::nullopt);
  EXPECT_EQ(hook_for_proc_request("cuMemGetInfo", 13000, 0), std::nullopt);
}

TEST(HookSymbols, ProcRequestsForDeviceMemoryPickTheirVersionAndStream) {
  constexpr cuuint64_t per_thread = CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM;
  EXPECT_EQ(hook_for_proc_request("cuMemAlloc", 13000, per_thread), (HookedSymbol{Hook::MemAlloc, false}));
  EXPECT_EQ(hook_for_proc_request("cuMemAlloc", 3000, 0), std::nullopt);  // 32-bit device pointers
  EXPECT_EQ(hook_for_proc_request("cuMemAllocPitch", 12000, 0), (HookedSymbol{Hook::MemAllocPitch, false}));
  EXPECT_EQ(hook_for_proc_request("cuMemAllocAsync", 13000, per_thread), (HookedSymbol{Hook::MemAllocAsync, true}));
  EXPECT_EQ(hook_for_proc_request("cuMemFreeAsync", 13000, 0), (HookedSymbol{Hook::MemFreeAsync, false}));
  EXPECT_EQ(hook_for_proc_request("cuMemMap", 13000, per_thread), (HookedSymbol{Hook::MemMap, false}));
  EXPECT_EQ(hook_for_exported_symbol("cuMemAllocFromPoolAsync_ptsz"), (HookedSymbol{Hook::MemAllocFromPoolAsync, true}));
  EXPECT_EQ(hook_for_exported_symbol("cuLibraryUnload"), (HookedSymbol{Hook::LibraryUnload, false}));
}

TEST(HookSymbols, ExportedNameOfEachVariant) {
  EXPECT_EQ(exported_name({Hook::LaunchKernel, true}), "cuLaunchKernel_ptsz");
  EXPECT_EQ(exported_name({Hook::LaunchKernelEx, false}), "cuLaunchKernelEx");
  EXPECT_EQ(exported_name({Hook::GetProcAddressV2, false}), "cuGetProcAddress_v2");
  EXPECT_EQ(exported_name({Hook::ModuleLoadDataEx, false}), "cuModuleLoadDataEx");
}

}  // namespace
}  // namespace barracuda::shim
