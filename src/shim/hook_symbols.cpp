#include "shim/hook_symbols.h"

#include <algorithm>
#include <array>

namespace barracuda::shim {
namespace {

struct ExportedSymbol {
  std::string_view name;
  HookedSymbol symbol;
};

// Every libcuda export the shim wraps (CUDA 13.0 names). Exact names only: a future "_v3" may change
// the signature, so anything not listed here is passed through untouched.
constexpr std::array kExportedSymbols{
    ExportedSymbol{"cuGetProcAddress", {Hook::GetProcAddress, false}},
    ExportedSymbol{"cuGetProcAddress_v2", {Hook::GetProcAddressV2, false}},
    ExportedSymbol{"cuLibraryLoadData", {Hook::LibraryLoadData, false}},
    ExportedSymbol{"cuModuleLoadData", {Hook::ModuleLoadData, false}},
    ExportedSymbol{"cuModuleLoadDataEx", {Hook::ModuleLoadDataEx, false}},
    ExportedSymbol{"cuModuleLoadFatBinary", {Hook::ModuleLoadFatBinary, false}},
    ExportedSymbol{"cuModuleLoad", {Hook::ModuleLoad, false}},
    ExportedSymbol{"cuLibraryLoadFromFile", {Hook::LibraryLoadFromFile, false}},
    ExportedSymbol{"cuLinkAddData", {Hook::LinkAddData, false}},
    ExportedSymbol{"cuLinkAddData_v2", {Hook::LinkAddData, false}},
    ExportedSymbol{"cuLinkAddFile", {Hook::LinkAddFile, false}},
    ExportedSymbol{"cuLinkAddFile_v2", {Hook::LinkAddFile, false}},
    ExportedSymbol{"cuLinkComplete", {Hook::LinkComplete, false}},
    ExportedSymbol{"cuLinkDestroy", {Hook::LinkDestroy, false}},
    ExportedSymbol{"cuLaunchKernel", {Hook::LaunchKernel, false}},
    ExportedSymbol{"cuLaunchKernel_ptsz", {Hook::LaunchKernel, true}},
    ExportedSymbol{"cuLaunchKernelEx", {Hook::LaunchKernelEx, false}},
    ExportedSymbol{"cuLaunchKernelEx_ptsz", {Hook::LaunchKernelEx, true}},
    ExportedSymbol{"cuLaunchCooperativeKernel", {Hook::LaunchCooperativeKernel, false}},
    ExportedSymbol{"cuLaunchCooperativeKernel_ptsz", {Hook::LaunchCooperativeKernel, true}},
    ExportedSymbol{"cuGraphLaunch", {Hook::GraphLaunch, false}},
    ExportedSymbol{"cuGraphLaunch_ptsz", {Hook::GraphLaunch, true}},
    ExportedSymbol{"cuModuleGetFunction", {Hook::ModuleGetFunction, false}},
    ExportedSymbol{"cuLibraryGetKernel", {Hook::LibraryGetKernel, false}},
    ExportedSymbol{"cuKernelGetFunction", {Hook::KernelGetFunction, false}},
    ExportedSymbol{"cuGraphInstantiateWithFlags", {Hook::GraphInstantiateWithFlags, false}},
    ExportedSymbol{"cuGraphInstantiateWithParams", {Hook::GraphInstantiateWithParams, false}},
    ExportedSymbol{"cuGraphInstantiateWithParams_ptsz", {Hook::GraphInstantiateWithParams, true}},
    ExportedSymbol{"cuGraphExecDestroy", {Hook::GraphExecDestroy, false}},
    ExportedSymbol{"cuGraphExecKernelNodeSetParams_v2", {Hook::GraphExecKernelNodeSetParams, false}},
    ExportedSymbol{"cuGraphExecUpdate_v2", {Hook::GraphExecUpdate, false}},
    ExportedSymbol{"cuGraphExecKernelNodeSetParams", {Hook::GraphExecKernelNodeSetParamsV1, false}},
    ExportedSymbol{"cuGraphExecUpdate", {Hook::GraphExecUpdateV1, false}},
    ExportedSymbol{"cuGraphExecMemcpyNodeSetParams", {Hook::GraphExecMemcpyNodeSetParams, false}},
    ExportedSymbol{"cuGraphExecMemsetNodeSetParams", {Hook::GraphExecMemsetNodeSetParams, false}},
    ExportedSymbol{"cuGraphExecHostNodeSetParams", {Hook::GraphExecHostNodeSetParams, false}},
    ExportedSymbol{"cuGraphExecChildGraphNodeSetParams", {Hook::GraphExecChildGraphNodeSetParams, false}},
    ExportedSymbol{"cuGraphExecEventRecordNodeSetEvent", {Hook::GraphExecEventRecordNodeSetEvent, false}},
    ExportedSymbol{"cuGraphExecEventWaitNodeSetEvent", {Hook::GraphExecEventWaitNodeSetEvent, false}},
    ExportedSymbol{"cuGraphExecNodeSetParams", {Hook::GraphExecNodeSetParams, false}},
    ExportedSymbol{"cuGraphNodeSetEnabled", {Hook::GraphNodeSetEnabled, false}},
    ExportedSymbol{"cuCtxSynchronize", {Hook::CtxSynchronize, false}},
    ExportedSymbol{"cuCtxSynchronize_v2", {Hook::CtxSynchronizeV2, false}},
    ExportedSymbol{"cuStreamSynchronize", {Hook::StreamSynchronize, false}},
    ExportedSymbol{"cuStreamSynchronize_ptsz", {Hook::StreamSynchronize, true}},
    ExportedSymbol{"cuStreamQuery", {Hook::StreamQuery, false}},
    ExportedSymbol{"cuStreamQuery_ptsz", {Hook::StreamQuery, true}},
    ExportedSymbol{"cuEventSynchronize", {Hook::EventCompletion, false}},
    ExportedSymbol{"cuEventQuery", {Hook::EventCompletion, false}},
    ExportedSymbol{"cuEventRecord", {Hook::EventRecord, false}},
    ExportedSymbol{"cuEventRecord_ptsz", {Hook::EventRecord, true}},
    ExportedSymbol{"cuEventRecordWithFlags", {Hook::EventRecordWithFlags, false}},
    ExportedSymbol{"cuEventRecordWithFlags_ptsz", {Hook::EventRecordWithFlags, true}},
    ExportedSymbol{"cuStreamWaitEvent", {Hook::StreamWaitEvent, false}},
    ExportedSymbol{"cuStreamWaitEvent_ptsz", {Hook::StreamWaitEvent, true}},
    ExportedSymbol{"cuMemcpyHtoD_v2", {Hook::MemcpyHtoD, false}},
    ExportedSymbol{"cuMemcpyHtoD_v2_ptds", {Hook::MemcpyHtoD, true}},
    ExportedSymbol{"cuMemcpyDtoH_v2", {Hook::MemcpyDtoH, false}},
    ExportedSymbol{"cuMemcpyDtoH_v2_ptds", {Hook::MemcpyDtoH, true}},
    ExportedSymbol{"cuMemcpyDtoD_v2", {Hook::MemcpyDtoD, false}},
    ExportedSymbol{"cuMemcpyDtoD_v2_ptds", {Hook::MemcpyDtoD, true}},
    ExportedSymbol{"cuMemcpy", {Hook::Memcpy, false}},
    ExportedSymbol{"cuMemcpy_ptds", {Hook::Memcpy, true}},
    ExportedSymbol{"cuMemFree_v2", {Hook::MemFree, false}},
    ExportedSymbol{"cuMemAlloc_v2", {Hook::MemAlloc, false}},
    ExportedSymbol{"cuMemAllocPitch_v2", {Hook::MemAllocPitch, false}},
    ExportedSymbol{"cuMemAllocManaged", {Hook::MemAllocManaged, false}},
    ExportedSymbol{"cuMemAllocAsync", {Hook::MemAllocAsync, false}},
    ExportedSymbol{"cuMemAllocAsync_ptsz", {Hook::MemAllocAsync, true}},
    ExportedSymbol{"cuMemAllocFromPoolAsync", {Hook::MemAllocFromPoolAsync, false}},
    ExportedSymbol{"cuMemAllocFromPoolAsync_ptsz", {Hook::MemAllocFromPoolAsync, true}},
    ExportedSymbol{"cuMemFreeAsync", {Hook::MemFreeAsync, false}},
    ExportedSymbol{"cuMemFreeAsync_ptsz", {Hook::MemFreeAsync, true}},
    ExportedSymbol{"cuMemMap", {Hook::MemMap, false}},
    ExportedSymbol{"cuMemUnmap", {Hook::MemUnmap, false}},
    ExportedSymbol{"cuModuleUnload", {Hook::ModuleUnload, false}},
    ExportedSymbol{"cuLibraryUnload", {Hook::LibraryUnload, false}},
    ExportedSymbol{"cuDevicePrimaryCtxReset_v2", {Hook::DevicePrimaryCtxReset, false}},
    ExportedSymbol{"cuCtxDestroy_v2", {Hook::CtxDestroy, false}},
};

// cuGetProcAddress takes base names; from `since` on, the driver answers `base` with the function
// exported as `exported` (another signature: the hook is that export's).
struct VersionedRequest {
  std::string_view base;
  int since;
  std::string_view exported;
};
constexpr std::array kVersionedRequests{
    VersionedRequest{"cuGetProcAddress", 12000, "cuGetProcAddress_v2"},
    VersionedRequest{"cuCtxSynchronize", 13000, "cuCtxSynchronize_v2"},
    // Before 3.2 these names took 32-bit device pointers: no hook.
    VersionedRequest{"cuMemcpyHtoD", 3020, "cuMemcpyHtoD_v2"},
    VersionedRequest{"cuMemcpyDtoH", 3020, "cuMemcpyDtoH_v2"},
    VersionedRequest{"cuMemcpyDtoD", 3020, "cuMemcpyDtoD_v2"},
    VersionedRequest{"cuMemFree", 3020, "cuMemFree_v2"},
    VersionedRequest{"cuMemAlloc", 3020, "cuMemAlloc_v2"},
    VersionedRequest{"cuMemAllocPitch", 3020, "cuMemAllocPitch_v2"},
    // The unversioned names are older behaviours (a reset that kept the context's flags, ...): no hook.
    VersionedRequest{"cuDevicePrimaryCtxReset", 11000, "cuDevicePrimaryCtxReset_v2"},
    VersionedRequest{"cuCtxDestroy", 4000, "cuCtxDestroy_v2"},
    // CUDA_KERNEL_NODE_PARAMS_v2 and CUgraphExecUpdateResultInfo from 12.0 on. ("cuGraphInstantiate"
    // took an error node and a log buffer before 12.0: not wrapped, in any version.)
    VersionedRequest{"cuGraphExecKernelNodeSetParams", 12000, "cuGraphExecKernelNodeSetParams_v2"},
    VersionedRequest{"cuGraphExecUpdate", 12000, "cuGraphExecUpdate_v2"},
};

bool has_per_thread_variant(Hook hook) {
  return std::ranges::any_of(kExportedSymbols, [hook](const ExportedSymbol& exported) {
    return exported.symbol == HookedSymbol{hook, true};
  });
}

}  // namespace

std::optional<HookedSymbol> hook_for_exported_symbol(std::string_view name) {
  for (const ExportedSymbol& exported : kExportedSymbols) {
    if (exported.name == name) return exported.symbol;
  }
  return std::nullopt;
}

std::optional<HookedSymbol> hook_for_proc_request(std::string_view name, int cuda_version, cuuint64_t flags) {
  // cuGetProcAddress takes base names and lets the flags pick the "_ptsz" variant, so a suffixed
  // per-thread name is not a request the driver answers.
  for (const VersionedRequest& request : kVersionedRequests) {
    if (request.base == name) {
      if (cuda_version >= request.since) name = request.exported;
      break;
    }
  }
  std::optional<HookedSymbol> found = hook_for_exported_symbol(name);
  if (!found || found->per_thread_stream) return std::nullopt;
  found->per_thread_stream =
      has_per_thread_variant(found->hook) && (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) != 0;
  return found;
}

std::string_view exported_name(HookedSymbol symbol) {
  for (const ExportedSymbol& exported : kExportedSymbols) {
    if (exported.symbol == symbol) return exported.name;
  }
  return {};
}

}  // namespace barracuda::shim
