#include "shim/driver_entry.h"

#include <array>
#include <mutex>
#include <type_traits>
#include <utility>

#include "shim/interceptors.h"

namespace barracuda::shim {
namespace {

template <Hook>
inline constexpr auto kInterceptor = nullptr;
template <> inline constexpr auto kInterceptor<Hook::GetProcAddress> = &intercept_get_proc_address;
template <> inline constexpr auto kInterceptor<Hook::GetProcAddressV2> = &intercept_get_proc_address_v2;
template <> inline constexpr auto kInterceptor<Hook::LibraryLoadData> = &intercept_library_load_data;
template <> inline constexpr auto kInterceptor<Hook::ModuleLoadData> = &intercept_module_load_data;
template <> inline constexpr auto kInterceptor<Hook::ModuleLoadDataEx> = &intercept_module_load_data_ex;
template <> inline constexpr auto kInterceptor<Hook::ModuleLoadFatBinary> = &intercept_module_load_fat_binary;
template <> inline constexpr auto kInterceptor<Hook::ModuleLoad> = &intercept_module_load;
template <> inline constexpr auto kInterceptor<Hook::LibraryLoadFromFile> = &intercept_library_load_from_file;
template <> inline constexpr auto kInterceptor<Hook::LinkAddData> = &intercept_link_add_data;
template <> inline constexpr auto kInterceptor<Hook::LinkAddFile> = &intercept_link_add_file;
template <> inline constexpr auto kInterceptor<Hook::LinkComplete> = &intercept_link_complete;
template <> inline constexpr auto kInterceptor<Hook::LinkDestroy> = &intercept_link_destroy;
template <> inline constexpr auto kInterceptor<Hook::LaunchKernel> = &intercept_launch_kernel;
template <> inline constexpr auto kInterceptor<Hook::LaunchKernelEx> = &intercept_launch_kernel_ex;
template <> inline constexpr auto kInterceptor<Hook::LaunchCooperativeKernel> =
    &intercept_launch_cooperative_kernel;
template <> inline constexpr auto kInterceptor<Hook::GraphLaunch> = &intercept_graph_launch;
template <> inline constexpr auto kInterceptor<Hook::ModuleGetFunction> = &intercept_module_get_function;
template <> inline constexpr auto kInterceptor<Hook::LibraryGetKernel> = &intercept_library_get_kernel;
template <> inline constexpr auto kInterceptor<Hook::KernelGetFunction> = &intercept_kernel_get_function;
template <> inline constexpr auto kInterceptor<Hook::GraphInstantiateWithFlags> = &intercept_graph_instantiate_with_flags;
template <> inline constexpr auto kInterceptor<Hook::GraphInstantiateWithParams> = &intercept_graph_instantiate_with_params;
template <> inline constexpr auto kInterceptor<Hook::GraphExecDestroy> = &intercept_graph_exec_destroy;
template <> inline constexpr auto kInterceptor<Hook::GraphExecKernelNodeSetParams> =
    &intercept_graph_exec_kernel_node_set_params;
template <> inline constexpr auto kInterceptor<Hook::GraphExecUpdate> = &intercept_graph_exec_update;
template <> inline constexpr auto kInterceptor<Hook::GraphExecKernelNodeSetParamsV1> =
    &UnmodelledExecChange<PFN_cuGraphExecKernelNodeSetParams_v10010>::intercept;
template <> inline constexpr auto kInterceptor<Hook::GraphExecUpdateV1> =
    &UnmodelledExecChange<PFN_cuGraphExecUpdate_v10020>::intercept;
template <> inline constexpr auto kInterceptor<Hook::GraphExecMemcpyNodeSetParams> =
    &UnmodelledExecChange<PFN_cuGraphExecMemcpyNodeSetParams_v10020>::intercept;
template <> inline constexpr auto kInterceptor<Hook::GraphExecMemsetNodeSetParams> =
    &UnmodelledExecChange<PFN_cuGraphExecMemsetNodeSetParams_v10020>::intercept;
template <> inline constexpr auto kInterceptor<Hook::GraphExecHostNodeSetParams> =
    &UnmodelledExecChange<PFN_cuGraphExecHostNodeSetParams_v10020>::intercept;
template <> inline constexpr auto kInterceptor<Hook::GraphExecChildGraphNodeSetParams> =
    &UnmodelledExecChange<PFN_cuGraphExecChildGraphNodeSetParams_v11010>::intercept;
template <> inline constexpr auto kInterceptor<Hook::GraphExecEventRecordNodeSetEvent> =
    &UnmodelledExecChange<PFN_cuGraphExecEventRecordNodeSetEvent_v11010>::intercept;
template <> inline constexpr auto kInterceptor<Hook::GraphExecEventWaitNodeSetEvent> =
    &UnmodelledExecChange<PFN_cuGraphExecEventWaitNodeSetEvent_v11010>::intercept;
template <> inline constexpr auto kInterceptor<Hook::GraphExecNodeSetParams> =
    &UnmodelledExecChange<PFN_cuGraphExecNodeSetParams_v12020>::intercept;
template <> inline constexpr auto kInterceptor<Hook::GraphNodeSetEnabled> =
    &UnmodelledExecChange<PFN_cuGraphNodeSetEnabled_v11060>::intercept;
template <> inline constexpr auto kInterceptor<Hook::CtxSynchronize> = &intercept_ctx_synchronize;
template <> inline constexpr auto kInterceptor<Hook::CtxSynchronizeV2> = &intercept_ctx_synchronize_v2;
template <> inline constexpr auto kInterceptor<Hook::StreamSynchronize> = &intercept_stream_completion;
template <> inline constexpr auto kInterceptor<Hook::StreamQuery> = &intercept_stream_completion;
template <> inline constexpr auto kInterceptor<Hook::EventCompletion> = &intercept_event_completion;
template <> inline constexpr auto kInterceptor<Hook::EventRecord> = &intercept_event_record;
template <> inline constexpr auto kInterceptor<Hook::EventRecordWithFlags> = &intercept_event_record_with_flags;
template <> inline constexpr auto kInterceptor<Hook::StreamWaitEvent> = &intercept_stream_wait_event;
template <> inline constexpr auto kInterceptor<Hook::MemcpyHtoD> = &intercept_memcpy_htod;
template <> inline constexpr auto kInterceptor<Hook::MemcpyDtoH> = &intercept_memcpy_dtoh;
template <> inline constexpr auto kInterceptor<Hook::MemcpyDtoD> = &intercept_memcpy_device;
template <> inline constexpr auto kInterceptor<Hook::Memcpy> = &intercept_memcpy_device;
template <> inline constexpr auto kInterceptor<Hook::MemFree> = &intercept_mem_free;
template <> inline constexpr auto kInterceptor<Hook::MemAlloc> = &intercept_mem_alloc;
template <> inline constexpr auto kInterceptor<Hook::MemAllocPitch> = &intercept_mem_alloc_pitch;
template <> inline constexpr auto kInterceptor<Hook::MemAllocManaged> = &intercept_mem_alloc_managed;
template <> inline constexpr auto kInterceptor<Hook::MemAllocAsync> = &intercept_mem_alloc_async;
template <> inline constexpr auto kInterceptor<Hook::MemAllocFromPoolAsync> = &intercept_mem_alloc_from_pool_async;
template <> inline constexpr auto kInterceptor<Hook::MemFreeAsync> = &intercept_mem_free_async;
template <> inline constexpr auto kInterceptor<Hook::MemMap> = &intercept_mem_map;
template <> inline constexpr auto kInterceptor<Hook::MemUnmap> = &intercept_mem_unmap;
template <> inline constexpr auto kInterceptor<Hook::ModuleUnload> = &intercept_module_unload;
template <> inline constexpr auto kInterceptor<Hook::LibraryUnload> = &intercept_library_unload;
template <> inline constexpr auto kInterceptor<Hook::DevicePrimaryCtxReset> = &intercept_device_primary_ctx_reset;
template <> inline constexpr auto kInterceptor<Hook::CtxDestroy> = &intercept_ctx_destroy;

struct HookEntries {
  std::mutex claim_mutex;
  std::array<DriverEntry, kEntriesPerHook> entries;
};

std::array<HookEntries, kHookCount>& all_entries() {
  static auto* const entries = new std::array<HookEntries, kHookCount>();
  return *entries;
}

// A thunk has the driver function's exact signature (minus the entry) and passes its own entry along.
template <Hook H, std::size_t Slot, typename Interceptor = std::remove_cv_t<decltype(kInterceptor<H>)>>
struct Thunk;
template <Hook H, std::size_t Slot, typename... Args>
struct Thunk<H, Slot, CUresult (*)(const DriverEntry&, Args...)> {
  static CUresult CUDAAPI call(Args... args) {
    return kInterceptor<H>(all_entries()[static_cast<std::size_t>(H)].entries[Slot], args...);
  }
};

using ThunkRow = std::array<void*, kEntriesPerHook>;

template <Hook H, std::size_t... Slots>
ThunkRow thunk_row(std::index_sequence<Slots...>) {
  return {reinterpret_cast<void*>(&Thunk<H, Slots>::call)...};
}

template <std::size_t... Hooks>
std::array<ThunkRow, kHookCount> thunk_table(std::index_sequence<Hooks...>) {
  return {thunk_row<static_cast<Hook>(Hooks)>(std::make_index_sequence<kEntriesPerHook>())...};
}

const std::array<ThunkRow, kHookCount>& thunks() {
  static const auto table = thunk_table(std::make_index_sequence<kHookCount>());
  return table;
}

}  // namespace

void* wrapper_for(HookedSymbol symbol, void* real) {
  if (real == nullptr) return nullptr;
  auto hook = static_cast<std::size_t>(symbol.hook);
  HookEntries& row = all_entries()[hook];
  std::lock_guard lock(row.claim_mutex);
  for (std::size_t slot = 0; slot < kEntriesPerHook; ++slot) {
    DriverEntry& entry = row.entries[slot];
    void* current = entry.real.load(std::memory_order_relaxed);
    if (current == real) return thunks()[hook][slot];
    if (current == nullptr) {
      entry.symbol = symbol;
      entry.real.store(real, std::memory_order_release);
      return thunks()[hook][slot];
    }
  }
  return real;
}

}  // namespace barracuda::shim
