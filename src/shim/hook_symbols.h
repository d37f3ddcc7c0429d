#pragma once
// Which driver entry points the shim wraps, and how the names applications ask for map onto them.
#include <cuda.h>

#include <cstdint>
#include <optional>
#include <string_view>

namespace barracuda::shim {

// One value per C signature the shim wraps: variants with the same signature (the per-thread default
// stream "_ptsz" launch entry points, cuLinkAddData and cuLinkAddData_v2) share a hook.
enum class Hook : std::uint8_t {
  GetProcAddress,    // cuGetProcAddress (CUDA 11.3 signature, 4 parameters)
  GetProcAddressV2,  // cuGetProcAddress_v2 (CUDA 12.0, adds the symbol status)
  LibraryLoadData,
  ModuleLoadData,
  ModuleLoadDataEx,
  ModuleLoadFatBinary,
  ModuleLoad,             // cuModuleLoad: a module from a file path
  LibraryLoadFromFile,
  LinkAddData,
  LinkAddFile,
  LinkComplete,
  LinkDestroy,
  LaunchKernel,
  LaunchKernelEx,
  LaunchCooperativeKernel,
  GraphLaunch,  // replayed node by node where the shim can (shim/graph_replay.h)
  ModuleGetFunction,
  LibraryGetKernel,
  KernelGetFunction,
  // Instantiated graphs, for the replay: what each runs and every change made to it.
  GraphInstantiateWithFlags,
  GraphInstantiateWithParams,
  GraphExecDestroy,
  GraphExecKernelNodeSetParams,  // cuGraphExecKernelNodeSetParams_v2 (CUDA_KERNEL_NODE_PARAMS_v2)
  GraphExecUpdate,               // cuGraphExecUpdate_v2
  // Changes the replay does not model: the instantiated graph is no longer replayed.
  GraphExecKernelNodeSetParamsV1,
  GraphExecUpdateV1,
  GraphExecMemcpyNodeSetParams,
  GraphExecMemsetNodeSetParams,
  GraphExecHostNodeSetParams,
  GraphExecChildGraphNodeSetParams,
  GraphExecEventRecordNodeSetEvent,
  GraphExecEventWaitNodeSetEvent,
  GraphExecNodeSetParams,
  GraphNodeSetEnabled,
  // Synchronisation, for the order of launches (runtime/stream_order.h):
  CtxSynchronize,      // cuCtxSynchronize (no parameter)
  CtxSynchronizeV2,    // cuCtxSynchronize_v2 (CUDA 13: the context to wait for)
  // A hook per entry point even where two share a signature and a meaning: each hook wraps at most
  // kEntriesPerHook driver functions (legacy and per-thread variants, several libcuda handles).
  StreamSynchronize,   // the host learns that the stream's work is done
  StreamQuery,         // the same when it returns CUDA_SUCCESS
  EventCompletion,     // cuEventSynchronize, cuEventQuery
  EventRecord,
  EventRecordWithFlags,
  StreamWaitEvent,
  MemcpyHtoD,          // synchronous copies: the host waits for the default stream
  MemcpyDtoH,
  MemcpyDtoD,
  Memcpy,              // unified addressing: either side may be host or device memory
  MemFree,             // cudaFree synchronises the device before freeing; the allocation leaves the map
  // Device memory, so that a race report can name the allocation its address lies in (memory_observer.h):
  MemAlloc,               // cuMemAlloc_v2 (cudaMalloc)
  MemAllocPitch,          // cuMemAllocPitch_v2 (cudaMallocPitch, cudaMalloc3D)
  MemAllocManaged,        // cudaMallocManaged
  MemAllocAsync,          // cudaMallocAsync on the stream's current pool
  MemAllocFromPoolAsync,  // cudaMallocFromPoolAsync
  MemFreeAsync,
  MemMap,                 // a virtual address range backed by cuMemCreate memory
  MemUnmap,
  ModuleUnload,           // the module's __device__ variables leave the map
  LibraryUnload,
  // Context teardown (cudaDeviceReset): the runtime releases what it keeps in the context first.
  DevicePrimaryCtxReset,
  CtxDestroy,
};
inline constexpr std::size_t kHookCount = static_cast<std::size_t>(Hook::CtxDestroy) + 1;

struct HookedSymbol {
  Hook hook;
  bool per_thread_stream;  // the "_ptsz"/"_ptds" flavour: stream 0 means the calling thread's default stream

  bool operator==(const HookedSymbol&) const = default;
};

// A symbol exported by libcuda, by its exact name as dlsym or the dynamic linker sees it
// ("cuLaunchKernel_ptsz", "cuGetProcAddress_v2"). Names the shim does not wrap give nullopt.
std::optional<HookedSymbol> hook_for_exported_symbol(std::string_view name);

// A cuGetProcAddress request: the base name without suffix, the caller's CUDA version (which picks the
// signature the driver returns) and flags (which pick the per-thread default stream variant).
std::optional<HookedSymbol> hook_for_proc_request(std::string_view name, int cuda_version, cuuint64_t flags);

// The exported name of the variant, for logs: "cuLaunchKernel_ptsz".
std::string_view exported_name(HookedSymbol symbol);

}  // namespace barracuda::shim
