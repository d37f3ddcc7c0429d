#pragma once
// What each wrapped driver entry point does around the driver's own function (entry.real). The thunks of
// driver_entry.h call these; the signatures are the driver's, with the entry in front.
#include <cuda.h>

#include "shim/driver_entry.h"

namespace barracuda::shim {

CUresult intercept_get_proc_address(const DriverEntry& entry, const char* symbol, void** function,
                                    int cuda_version, cuuint64_t flags);
CUresult intercept_get_proc_address_v2(const DriverEntry& entry, const char* symbol, void** function,
                                       int cuda_version, cuuint64_t flags,
                                       CUdriverProcAddressQueryResult* symbol_status);

CUresult intercept_library_load_data(const DriverEntry& entry, CUlibrary* library, const void* code,
                                     CUjit_option* jit_options, void** jit_option_values,
                                     unsigned int jit_option_count, CUlibraryOption* library_options,
                                     void** library_option_values, unsigned int library_option_count);
CUresult intercept_module_load_data(const DriverEntry& entry, CUmodule* module, const void* image);
CUresult intercept_module_load_data_ex(const DriverEntry& entry, CUmodule* module, const void* image,
                                       unsigned int option_count, CUjit_option* options, void** option_values);
CUresult intercept_module_load_fat_binary(const DriverEntry& entry, CUmodule* module, const void* fatbin);
CUresult intercept_module_load(const DriverEntry& entry, CUmodule* module, const char* path);
CUresult intercept_library_load_from_file(const DriverEntry& entry, CUlibrary* library, const char* path,
                                          CUjit_option* jit_options, void** jit_option_values,
                                          unsigned int jit_option_count, CUlibraryOption* library_options,
                                          void** library_option_values, unsigned int library_option_count);
CUresult intercept_link_add_data(const DriverEntry& entry, CUlinkState state, CUjitInputType type, void* data,
                                 size_t size, const char* name, unsigned int option_count, CUjit_option* options,
                                 void** option_values);
CUresult intercept_link_add_file(const DriverEntry& entry, CUlinkState state, CUjitInputType type, const char* path,
                                 unsigned int option_count, CUjit_option* options, void** option_values);
CUresult intercept_link_complete(const DriverEntry& entry, CUlinkState state, void** cubin, size_t* size);
CUresult intercept_link_destroy(const DriverEntry& entry, CUlinkState state);

CUresult intercept_module_get_function(const DriverEntry& entry, CUfunction* function, CUmodule module,
                                       const char* name);
CUresult intercept_library_get_kernel(const DriverEntry& entry, CUkernel* kernel, CUlibrary library,
                                      const char* name);
CUresult intercept_kernel_get_function(const DriverEntry& entry, CUfunction* function, CUkernel kernel);

CUresult intercept_launch_kernel(const DriverEntry& entry, CUfunction function, unsigned int grid_x,
                                 unsigned int grid_y, unsigned int grid_z, unsigned int block_x,
                                 unsigned int block_y, unsigned int block_z, unsigned int shared_mem_bytes,
                                 CUstream stream, void** kernel_params, void** extra);
CUresult intercept_launch_kernel_ex(const DriverEntry& entry, const CUlaunchConfig* config, CUfunction function,
                                    void** kernel_params, void** extra);
CUresult intercept_launch_cooperative_kernel(const DriverEntry& entry, CUfunction function, unsigned int grid_x,
                                             unsigned int grid_y, unsigned int grid_z, unsigned int block_x,
                                             unsigned int block_y, unsigned int block_z,
                                             unsigned int shared_mem_bytes, CUstream stream,
                                             void** kernel_params);

// Graphs (graph_hooks.cpp).
CUresult intercept_graph_instantiate_with_flags(const DriverEntry& entry, CUgraphExec* exec, CUgraph graph,
                                                unsigned long long flags);
CUresult intercept_graph_instantiate_with_params(const DriverEntry& entry, CUgraphExec* exec, CUgraph graph,
                                                 CUDA_GRAPH_INSTANTIATE_PARAMS* params);
CUresult intercept_graph_exec_destroy(const DriverEntry& entry, CUgraphExec exec);
CUresult intercept_graph_exec_kernel_node_set_params(const DriverEntry& entry, CUgraphExec exec, CUgraphNode node,
                                                     const CUDA_KERNEL_NODE_PARAMS* params);
CUresult intercept_graph_exec_update(const DriverEntry& entry, CUgraphExec exec, CUgraph graph,
                                     CUgraphExecUpdateResultInfo* result_info);
CUresult intercept_graph_launch(const DriverEntry& entry, CUgraphExec exec, CUstream stream);

// A change of an instantiated graph that the replay does not model: its launches are no longer replayed.
void forget_replay(CUgraphExec exec, HookedSymbol entry);
template <typename Function>
struct UnmodelledExecChange;
template <typename... Args>
struct UnmodelledExecChange<CUresult(CUDAAPI*)(CUgraphExec, Args...)> {
  static CUresult intercept(const DriverEntry& entry, CUgraphExec exec, Args... args) {
    const CUresult result = entry.real_as<CUresult(CUDAAPI*)(CUgraphExec, Args...)>()(exec, args...);
    if (result == CUDA_SUCCESS) forget_replay(exec, entry.symbol);
    return result;
  }
};

CUresult intercept_device_primary_ctx_reset(const DriverEntry& entry, CUdevice device);
CUresult intercept_ctx_destroy(const DriverEntry& entry, CUcontext context);
CUresult intercept_ctx_synchronize(const DriverEntry& entry);
CUresult intercept_ctx_synchronize_v2(const DriverEntry& entry, CUcontext context);
CUresult intercept_stream_completion(const DriverEntry& entry, CUstream stream);
CUresult intercept_event_completion(const DriverEntry& entry, CUevent event);
CUresult intercept_event_record(const DriverEntry& entry, CUevent event, CUstream stream);
CUresult intercept_event_record_with_flags(const DriverEntry& entry, CUevent event, CUstream stream,
                                           unsigned int flags);
CUresult intercept_stream_wait_event(const DriverEntry& entry, CUstream stream, CUevent event, unsigned int flags);
CUresult intercept_memcpy_htod(const DriverEntry& entry, CUdeviceptr destination, const void* source, size_t bytes);
CUresult intercept_memcpy_dtoh(const DriverEntry& entry, void* destination, CUdeviceptr source, size_t bytes);
CUresult intercept_mem_free(const DriverEntry& entry, CUdeviceptr pointer);
// Device memory (memory_hooks.cpp).
CUresult intercept_mem_alloc(const DriverEntry& entry, CUdeviceptr* pointer, size_t bytes);
CUresult intercept_mem_alloc_pitch(const DriverEntry& entry, CUdeviceptr* pointer, size_t* pitch, size_t width,
                                   size_t height, unsigned int element_bytes);
CUresult intercept_mem_alloc_managed(const DriverEntry& entry, CUdeviceptr* pointer, size_t bytes, unsigned int flags);
CUresult intercept_mem_alloc_async(const DriverEntry& entry, CUdeviceptr* pointer, size_t bytes, CUstream stream);
CUresult intercept_mem_alloc_from_pool_async(const DriverEntry& entry, CUdeviceptr* pointer, size_t bytes,
                                             CUmemoryPool pool, CUstream stream);
CUresult intercept_mem_free_async(const DriverEntry& entry, CUdeviceptr pointer, CUstream stream);
CUresult intercept_mem_map(const DriverEntry& entry, CUdeviceptr pointer, size_t size, size_t offset,
                           CUmemGenericAllocationHandle handle, unsigned long long flags);
CUresult intercept_mem_unmap(const DriverEntry& entry, CUdeviceptr pointer, size_t size);
CUresult intercept_module_unload(const DriverEntry& entry, CUmodule module);
CUresult intercept_library_unload(const DriverEntry& entry, CUlibrary library);

CUresult intercept_memcpy_device(const DriverEntry& entry, CUdeviceptr destination, CUdeviceptr source,
                                 size_t bytes);

}  // namespace barracuda::shim
