// The wrapped driver entry points under libcuda's own names, for applications linked with -lcuda: the
// dynamic linker binds their calls to these definitions because the preload library comes first. Each
// forwards to the thunk wrapping libcuda's definition of the same name.
#include <cudaTypedefs.h>

#include "shim/driver_entry.h"
#include "shim/real_driver.h"

// cuda.h maps these names onto their newest versions; the original names are libcuda exports too (the
// original cuLinkAddData has the same signature as cuLinkAddData_v2; the original graph updates take
// CUDA_KERNEL_NODE_PARAMS_v1 and an error node).
#undef cuGetProcAddress
#undef cuLinkAddData
#undef cuLinkAddFile
#undef cuGraphExecKernelNodeSetParams
#undef cuGraphExecUpdate

namespace {

template <typename Function>
Function wrapped_export(const char* name) {
  std::optional<barracuda::shim::HookedSymbol> hooked = barracuda::shim::hook_for_exported_symbol(name);
  void* real = barracuda::shim::libcuda_symbol(name);
  return hooked ? reinterpret_cast<Function>(barracuda::shim::wrapper_for(*hooked, real)) : nullptr;
}

// What the application gets when libcuda.so.1 or the symbol cannot be found at run time.
constexpr CUresult kNoDriver = CUDA_ERROR_NOT_INITIALIZED;

}  // namespace

#define BARRACUDA_FORWARD(type, name, ...)                                       \
  static const auto forward = wrapped_export<type>(name);                        \
  return forward != nullptr ? forward(__VA_ARGS__) : kNoDriver

extern "C" {

CUresult CUDAAPI cuGetProcAddress(const char* symbol, void** function, int cuda_version, cuuint64_t flags) {
  BARRACUDA_FORWARD(PFN_cuGetProcAddress_v11030, "cuGetProcAddress", symbol, function, cuda_version, flags);
}

CUresult CUDAAPI cuGetProcAddress_v2(const char* symbol, void** function, int cuda_version, cuuint64_t flags,
                                     CUdriverProcAddressQueryResult* symbol_status) {
  BARRACUDA_FORWARD(PFN_cuGetProcAddress_v12000, "cuGetProcAddress_v2", symbol, function, cuda_version, flags,
                    symbol_status);
}

CUresult CUDAAPI cuLibraryLoadData(CUlibrary* library, const void* code, CUjit_option* jit_options,
                                   void** jit_option_values, unsigned int jit_option_count,
                                   CUlibraryOption* library_options, void** library_option_values,
                                   unsigned int library_option_count) {
  BARRACUDA_FORWARD(PFN_cuLibraryLoadData_v12000, "cuLibraryLoadData", library, code, jit_options,
                    jit_option_values, jit_option_count, library_options, library_option_values,
                    library_option_count);
}

CUresult CUDAAPI cuModuleLoadData(CUmodule* module, const void* image) {
  BARRACUDA_FORWARD(PFN_cuModuleLoadData_v2000, "cuModuleLoadData", module, image);
}

CUresult CUDAAPI cuModuleLoadDataEx(CUmodule* module, const void* image, unsigned int option_count,
                                    CUjit_option* options, void** option_values) {
  BARRACUDA_FORWARD(PFN_cuModuleLoadDataEx_v2010, "cuModuleLoadDataEx", module, image, option_count, options,
                    option_values);
}

CUresult CUDAAPI cuModuleLoadFatBinary(CUmodule* module, const void* fatbin) {
  BARRACUDA_FORWARD(PFN_cuModuleLoadFatBinary_v2000, "cuModuleLoadFatBinary", module, fatbin);
}

CUresult CUDAAPI cuModuleLoad(CUmodule* module, const char* path) {
  BARRACUDA_FORWARD(PFN_cuModuleLoad_v2000, "cuModuleLoad", module, path);
}

CUresult CUDAAPI cuLibraryLoadFromFile(CUlibrary* library, const char* path, CUjit_option* jit_options,
                                       void** jit_option_values, unsigned int jit_option_count,
                                       CUlibraryOption* library_options, void** library_option_values,
                                       unsigned int library_option_count) {
  BARRACUDA_FORWARD(PFN_cuLibraryLoadFromFile_v12000, "cuLibraryLoadFromFile", library, path, jit_options,
                    jit_option_values, jit_option_count, library_options, library_option_values,
                    library_option_count);
}

CUresult CUDAAPI cuLinkAddData(CUlinkState state, CUjitInputType type, void* data, size_t size, const char* name,
                               unsigned int option_count, CUjit_option* options, void** option_values) {
  BARRACUDA_FORWARD(PFN_cuLinkAddData_v6050, "cuLinkAddData", state, type, data, size, name, option_count,
                    options, option_values);
}

CUresult CUDAAPI cuLinkAddData_v2(CUlinkState state, CUjitInputType type, void* data, size_t size,
                                  const char* name, unsigned int option_count, CUjit_option* options,
                                  void** option_values) {
  BARRACUDA_FORWARD(PFN_cuLinkAddData_v6050, "cuLinkAddData_v2", state, type, data, size, name, option_count,
                    options, option_values);
}

CUresult CUDAAPI cuLinkAddFile(CUlinkState state, CUjitInputType type, const char* path, unsigned int option_count,
                               CUjit_option* options, void** option_values) {
  BARRACUDA_FORWARD(PFN_cuLinkAddFile_v6050, "cuLinkAddFile", state, type, path, option_count, options, option_values);
}

CUresult CUDAAPI cuLinkAddFile_v2(CUlinkState state, CUjitInputType type, const char* path, unsigned int option_count,
                                  CUjit_option* options, void** option_values) {
  BARRACUDA_FORWARD(PFN_cuLinkAddFile_v6050, "cuLinkAddFile_v2", state, type, path, option_count, options,
                    option_values);
}

CUresult CUDAAPI cuLinkComplete(CUlinkState state, void** cubin, size_t* size) {
  BARRACUDA_FORWARD(PFN_cuLinkComplete_v5050, "cuLinkComplete", state, cubin, size);
}

CUresult CUDAAPI cuLinkDestroy(CUlinkState state) {
  BARRACUDA_FORWARD(PFN_cuLinkDestroy_v5050, "cuLinkDestroy", state);
}

CUresult CUDAAPI cuLaunchKernel(CUfunction function, unsigned int grid_x, unsigned int grid_y,
                                unsigned int grid_z, unsigned int block_x, unsigned int block_y,
                                unsigned int block_z, unsigned int shared_mem_bytes, CUstream stream,
                                void** kernel_params, void** extra) {
  BARRACUDA_FORWARD(PFN_cuLaunchKernel_v4000, "cuLaunchKernel", function, grid_x, grid_y, grid_z, block_x,
                    block_y, block_z, shared_mem_bytes, stream, kernel_params, extra);
}

CUresult CUDAAPI cuLaunchKernel_ptsz(CUfunction function, unsigned int grid_x, unsigned int grid_y,
                                     unsigned int grid_z, unsigned int block_x, unsigned int block_y,
                                     unsigned int block_z, unsigned int shared_mem_bytes, CUstream stream,
                                     void** kernel_params, void** extra) {
  BARRACUDA_FORWARD(PFN_cuLaunchKernel_v7000_ptsz, "cuLaunchKernel_ptsz", function, grid_x, grid_y, grid_z,
                    block_x, block_y, block_z, shared_mem_bytes, stream, kernel_params, extra);
}

CUresult CUDAAPI cuLaunchKernelEx(const CUlaunchConfig* config, CUfunction function, void** kernel_params,
                                  void** extra) {
  BARRACUDA_FORWARD(PFN_cuLaunchKernelEx_v11060, "cuLaunchKernelEx", config, function, kernel_params, extra);
}

CUresult CUDAAPI cuLaunchKernelEx_ptsz(const CUlaunchConfig* config, CUfunction function, void** kernel_params,
                                       void** extra) {
  BARRACUDA_FORWARD(PFN_cuLaunchKernelEx_v11060_ptsz, "cuLaunchKernelEx_ptsz", config, function, kernel_params,
                    extra);
}

CUresult CUDAAPI cuLaunchCooperativeKernel(CUfunction function, unsigned int grid_x, unsigned int grid_y,
                                           unsigned int grid_z, unsigned int block_x, unsigned int block_y,
                                           unsigned int block_z, unsigned int shared_mem_bytes, CUstream stream,
                                           void** kernel_params) {
  BARRACUDA_FORWARD(PFN_cuLaunchCooperativeKernel_v9000, "cuLaunchCooperativeKernel", function, grid_x, grid_y,
                    grid_z, block_x, block_y, block_z, shared_mem_bytes, stream, kernel_params);
}

CUresult CUDAAPI cuLaunchCooperativeKernel_ptsz(CUfunction function, unsigned int grid_x, unsigned int grid_y,
                                                unsigned int grid_z, unsigned int block_x, unsigned int block_y,
                                                unsigned int block_z, unsigned int shared_mem_bytes,
                                                CUstream stream, void** kernel_params) {
  BARRACUDA_FORWARD(PFN_cuLaunchCooperativeKernel_v9000_ptsz, "cuLaunchCooperativeKernel_ptsz", function, grid_x,
                    grid_y, grid_z, block_x, block_y, block_z, shared_mem_bytes, stream, kernel_params);
}

CUresult CUDAAPI cuGraphLaunch(CUgraphExec graph, CUstream stream) {
  BARRACUDA_FORWARD(PFN_cuGraphLaunch_v10000, "cuGraphLaunch", graph, stream);
}

CUresult CUDAAPI cuGraphLaunch_ptsz(CUgraphExec graph, CUstream stream) {
  BARRACUDA_FORWARD(PFN_cuGraphLaunch_v10000_ptsz, "cuGraphLaunch_ptsz", graph, stream);
}

CUresult CUDAAPI cuGraphInstantiateWithFlags(CUgraphExec* exec, CUgraph graph, unsigned long long flags) {
  BARRACUDA_FORWARD(PFN_cuGraphInstantiateWithFlags_v11040, "cuGraphInstantiateWithFlags", exec, graph, flags);
}

CUresult CUDAAPI cuGraphInstantiateWithParams(CUgraphExec* exec, CUgraph graph, CUDA_GRAPH_INSTANTIATE_PARAMS* params) {
  BARRACUDA_FORWARD(PFN_cuGraphInstantiateWithParams_v12000, "cuGraphInstantiateWithParams", exec, graph, params);
}

CUresult CUDAAPI cuGraphInstantiateWithParams_ptsz(CUgraphExec* exec, CUgraph graph,
                                                   CUDA_GRAPH_INSTANTIATE_PARAMS* params) {
  BARRACUDA_FORWARD(PFN_cuGraphInstantiateWithParams_v12000_ptsz, "cuGraphInstantiateWithParams_ptsz", exec, graph,
                    params);
}

CUresult CUDAAPI cuGraphExecDestroy(CUgraphExec exec) {
  BARRACUDA_FORWARD(PFN_cuGraphExecDestroy_v10000, "cuGraphExecDestroy", exec);
}

CUresult CUDAAPI cuGraphExecKernelNodeSetParams_v2(CUgraphExec exec, CUgraphNode node,
                                                   const CUDA_KERNEL_NODE_PARAMS_v2* params) {
  BARRACUDA_FORWARD(PFN_cuGraphExecKernelNodeSetParams_v12000, "cuGraphExecKernelNodeSetParams_v2", exec, node,
                    params);
}

CUresult CUDAAPI cuGraphExecKernelNodeSetParams(CUgraphExec exec, CUgraphNode node,
                                                const CUDA_KERNEL_NODE_PARAMS_v1* params) {
  BARRACUDA_FORWARD(PFN_cuGraphExecKernelNodeSetParams_v10010, "cuGraphExecKernelNodeSetParams", exec, node, params);
}

CUresult CUDAAPI cuGraphExecUpdate_v2(CUgraphExec exec, CUgraph graph, CUgraphExecUpdateResultInfo* result_info) {
  BARRACUDA_FORWARD(PFN_cuGraphExecUpdate_v12000, "cuGraphExecUpdate_v2", exec, graph, result_info);
}

CUresult CUDAAPI cuGraphExecUpdate(CUgraphExec exec, CUgraph graph, CUgraphNode* error_node,
                                   CUgraphExecUpdateResult* update_result) {
  BARRACUDA_FORWARD(PFN_cuGraphExecUpdate_v10020, "cuGraphExecUpdate", exec, graph, error_node, update_result);
}

CUresult CUDAAPI cuGraphExecMemcpyNodeSetParams(CUgraphExec exec, CUgraphNode node, const CUDA_MEMCPY3D* params,
                                                CUcontext context) {
  BARRACUDA_FORWARD(PFN_cuGraphExecMemcpyNodeSetParams_v10020, "cuGraphExecMemcpyNodeSetParams", exec, node, params,
                    context);
}

CUresult CUDAAPI cuGraphExecMemsetNodeSetParams(CUgraphExec exec, CUgraphNode node,
                                                const CUDA_MEMSET_NODE_PARAMS* params, CUcontext context) {
  BARRACUDA_FORWARD(PFN_cuGraphExecMemsetNodeSetParams_v10020, "cuGraphExecMemsetNodeSetParams", exec, node, params,
                    context);
}

CUresult CUDAAPI cuGraphExecHostNodeSetParams(CUgraphExec exec, CUgraphNode node, const CUDA_HOST_NODE_PARAMS* params) {
  BARRACUDA_FORWARD(PFN_cuGraphExecHostNodeSetParams_v10020, "cuGraphExecHostNodeSetParams", exec, node, params);
}

CUresult CUDAAPI cuGraphExecChildGraphNodeSetParams(CUgraphExec exec, CUgraphNode node, CUgraph child) {
  BARRACUDA_FORWARD(PFN_cuGraphExecChildGraphNodeSetParams_v11010, "cuGraphExecChildGraphNodeSetParams", exec, node,
                    child);
}

CUresult CUDAAPI cuGraphExecEventRecordNodeSetEvent(CUgraphExec exec, CUgraphNode node, CUevent event) {
  BARRACUDA_FORWARD(PFN_cuGraphExecEventRecordNodeSetEvent_v11010, "cuGraphExecEventRecordNodeSetEvent", exec, node,
                    event);
}

CUresult CUDAAPI cuGraphExecEventWaitNodeSetEvent(CUgraphExec exec, CUgraphNode node, CUevent event) {
  BARRACUDA_FORWARD(PFN_cuGraphExecEventWaitNodeSetEvent_v11010, "cuGraphExecEventWaitNodeSetEvent", exec, node,
                    event);
}

CUresult CUDAAPI cuGraphExecNodeSetParams(CUgraphExec exec, CUgraphNode node, CUgraphNodeParams* params) {
  BARRACUDA_FORWARD(PFN_cuGraphExecNodeSetParams_v12020, "cuGraphExecNodeSetParams", exec, node, params);
}

CUresult CUDAAPI cuGraphNodeSetEnabled(CUgraphExec exec, CUgraphNode node, unsigned int enabled) {
  BARRACUDA_FORWARD(PFN_cuGraphNodeSetEnabled_v11060, "cuGraphNodeSetEnabled", exec, node, enabled);
}

CUresult CUDAAPI cuModuleGetFunction(CUfunction* function, CUmodule module, const char* name) {
  BARRACUDA_FORWARD(PFN_cuModuleGetFunction_v2000, "cuModuleGetFunction", function, module, name);
}

CUresult CUDAAPI cuLibraryGetKernel(CUkernel* kernel, CUlibrary library, const char* name) {
  BARRACUDA_FORWARD(PFN_cuLibraryGetKernel_v12000, "cuLibraryGetKernel", kernel, library, name);
}

CUresult CUDAAPI cuKernelGetFunction(CUfunction* function, CUkernel kernel) {
  BARRACUDA_FORWARD(PFN_cuKernelGetFunction_v12000, "cuKernelGetFunction", function, kernel);
}

CUresult CUDAAPI cuCtxSynchronize() { BARRACUDA_FORWARD(PFN_cuCtxSynchronize_v2000, "cuCtxSynchronize"); }

CUresult CUDAAPI cuCtxSynchronize_v2(CUcontext context) {
  BARRACUDA_FORWARD(PFN_cuCtxSynchronize_v13000, "cuCtxSynchronize_v2", context);
}

CUresult CUDAAPI cuStreamSynchronize(CUstream stream) {
  BARRACUDA_FORWARD(PFN_cuStreamSynchronize_v2000, "cuStreamSynchronize", stream);
}

CUresult CUDAAPI cuStreamSynchronize_ptsz(CUstream stream) {
  BARRACUDA_FORWARD(PFN_cuStreamSynchronize_v7000_ptsz, "cuStreamSynchronize_ptsz", stream);
}

CUresult CUDAAPI cuStreamQuery(CUstream stream) { BARRACUDA_FORWARD(PFN_cuStreamQuery_v2000, "cuStreamQuery", stream); }

CUresult CUDAAPI cuStreamQuery_ptsz(CUstream stream) {
  BARRACUDA_FORWARD(PFN_cuStreamQuery_v7000_ptsz, "cuStreamQuery_ptsz", stream);
}

CUresult CUDAAPI cuEventSynchronize(CUevent event) {
  BARRACUDA_FORWARD(PFN_cuEventSynchronize_v2000, "cuEventSynchronize", event);
}

CUresult CUDAAPI cuEventQuery(CUevent event) { BARRACUDA_FORWARD(PFN_cuEventQuery_v2000, "cuEventQuery", event); }

CUresult CUDAAPI cuEventRecord(CUevent event, CUstream stream) {
  BARRACUDA_FORWARD(PFN_cuEventRecord_v2000, "cuEventRecord", event, stream);
}

CUresult CUDAAPI cuEventRecord_ptsz(CUevent event, CUstream stream) {
  BARRACUDA_FORWARD(PFN_cuEventRecord_v7000_ptsz, "cuEventRecord_ptsz", event, stream);
}

CUresult CUDAAPI cuEventRecordWithFlags(CUevent event, CUstream stream, unsigned int flags) {
  BARRACUDA_FORWARD(PFN_cuEventRecordWithFlags_v11010, "cuEventRecordWithFlags", event, stream, flags);
}

CUresult CUDAAPI cuEventRecordWithFlags_ptsz(CUevent event, CUstream stream, unsigned int flags) {
  BARRACUDA_FORWARD(PFN_cuEventRecordWithFlags_v11010_ptsz, "cuEventRecordWithFlags_ptsz", event, stream, flags);
}

CUresult CUDAAPI cuStreamWaitEvent(CUstream stream, CUevent event, unsigned int flags) {
  BARRACUDA_FORWARD(PFN_cuStreamWaitEvent_v3020, "cuStreamWaitEvent", stream, event, flags);
}

CUresult CUDAAPI cuStreamWaitEvent_ptsz(CUstream stream, CUevent event, unsigned int flags) {
  BARRACUDA_FORWARD(PFN_cuStreamWaitEvent_v7000_ptsz, "cuStreamWaitEvent_ptsz", stream, event, flags);
}

CUresult CUDAAPI cuMemcpyHtoD_v2(CUdeviceptr destination, const void* source, size_t bytes) {
  BARRACUDA_FORWARD(PFN_cuMemcpyHtoD_v3020, "cuMemcpyHtoD_v2", destination, source, bytes);
}

CUresult CUDAAPI cuMemcpyHtoD_v2_ptds(CUdeviceptr destination, const void* source, size_t bytes) {
  BARRACUDA_FORWARD(PFN_cuMemcpyHtoD_v7000_ptds, "cuMemcpyHtoD_v2_ptds", destination, source, bytes);
}

CUresult CUDAAPI cuMemcpyDtoH_v2(void* destination, CUdeviceptr source, size_t bytes) {
  BARRACUDA_FORWARD(PFN_cuMemcpyDtoH_v3020, "cuMemcpyDtoH_v2", destination, source, bytes);
}

CUresult CUDAAPI cuMemcpyDtoH_v2_ptds(void* destination, CUdeviceptr source, size_t bytes) {
  BARRACUDA_FORWARD(PFN_cuMemcpyDtoH_v7000_ptds, "cuMemcpyDtoH_v2_ptds", destination, source, bytes);
}

CUresult CUDAAPI cuMemcpyDtoD_v2(CUdeviceptr destination, CUdeviceptr source, size_t bytes) {
  BARRACUDA_FORWARD(PFN_cuMemcpyDtoD_v3020, "cuMemcpyDtoD_v2", destination, source, bytes);
}

CUresult CUDAAPI cuMemcpyDtoD_v2_ptds(CUdeviceptr destination, CUdeviceptr source, size_t bytes) {
  BARRACUDA_FORWARD(PFN_cuMemcpyDtoD_v7000_ptds, "cuMemcpyDtoD_v2_ptds", destination, source, bytes);
}

CUresult CUDAAPI cuMemcpy(CUdeviceptr destination, CUdeviceptr source, size_t bytes) {
  BARRACUDA_FORWARD(PFN_cuMemcpy_v4000, "cuMemcpy", destination, source, bytes);
}

CUresult CUDAAPI cuMemcpy_ptds(CUdeviceptr destination, CUdeviceptr source, size_t bytes) {
  BARRACUDA_FORWARD(PFN_cuMemcpy_v7000_ptds, "cuMemcpy_ptds", destination, source, bytes);
}

CUresult CUDAAPI cuMemFree_v2(CUdeviceptr pointer) {
  BARRACUDA_FORWARD(PFN_cuMemFree_v3020, "cuMemFree_v2", pointer);
}

CUresult CUDAAPI cuMemAlloc_v2(CUdeviceptr* pointer, size_t bytes) {
  BARRACUDA_FORWARD(PFN_cuMemAlloc_v3020, "cuMemAlloc_v2", pointer, bytes);
}

CUresult CUDAAPI cuMemAllocPitch_v2(CUdeviceptr* pointer, size_t* pitch, size_t width, size_t height,
                                    unsigned int element_bytes) {
  BARRACUDA_FORWARD(PFN_cuMemAllocPitch_v3020, "cuMemAllocPitch_v2", pointer, pitch, width, height, element_bytes);
}

CUresult CUDAAPI cuMemAllocManaged(CUdeviceptr* pointer, size_t bytes, unsigned int flags) {
  BARRACUDA_FORWARD(PFN_cuMemAllocManaged_v6000, "cuMemAllocManaged", pointer, bytes, flags);
}

CUresult CUDAAPI cuMemAllocAsync(CUdeviceptr* pointer, size_t bytes, CUstream stream) {
  BARRACUDA_FORWARD(PFN_cuMemAllocAsync_v11020, "cuMemAllocAsync", pointer, bytes, stream);
}

CUresult CUDAAPI cuMemAllocAsync_ptsz(CUdeviceptr* pointer, size_t bytes, CUstream stream) {
  BARRACUDA_FORWARD(PFN_cuMemAllocAsync_v11020_ptsz, "cuMemAllocAsync_ptsz", pointer, bytes, stream);
}

CUresult CUDAAPI cuMemAllocFromPoolAsync(CUdeviceptr* pointer, size_t bytes, CUmemoryPool pool, CUstream stream) {
  BARRACUDA_FORWARD(PFN_cuMemAllocFromPoolAsync_v11020, "cuMemAllocFromPoolAsync", pointer, bytes, pool, stream);
}

CUresult CUDAAPI cuMemAllocFromPoolAsync_ptsz(CUdeviceptr* pointer, size_t bytes, CUmemoryPool pool,
                                              CUstream stream) {
  BARRACUDA_FORWARD(PFN_cuMemAllocFromPoolAsync_v11020_ptsz, "cuMemAllocFromPoolAsync_ptsz", pointer, bytes, pool,
                    stream);
}

CUresult CUDAAPI cuMemFreeAsync(CUdeviceptr pointer, CUstream stream) {
  BARRACUDA_FORWARD(PFN_cuMemFreeAsync_v11020, "cuMemFreeAsync", pointer, stream);
}

CUresult CUDAAPI cuMemFreeAsync_ptsz(CUdeviceptr pointer, CUstream stream) {
  BARRACUDA_FORWARD(PFN_cuMemFreeAsync_v11020_ptsz, "cuMemFreeAsync_ptsz", pointer, stream);
}

CUresult CUDAAPI cuMemMap(CUdeviceptr pointer, size_t size, size_t offset, CUmemGenericAllocationHandle handle,
                          unsigned long long flags) {
  BARRACUDA_FORWARD(PFN_cuMemMap_v10020, "cuMemMap", pointer, size, offset, handle, flags);
}

CUresult CUDAAPI cuMemUnmap(CUdeviceptr pointer, size_t size) {
  BARRACUDA_FORWARD(PFN_cuMemUnmap_v10020, "cuMemUnmap", pointer, size);
}

CUresult CUDAAPI cuModuleUnload(CUmodule module) { BARRACUDA_FORWARD(PFN_cuModuleUnload_v2000, "cuModuleUnload", module); }

CUresult CUDAAPI cuLibraryUnload(CUlibrary library) {
  BARRACUDA_FORWARD(PFN_cuLibraryUnload_v12000, "cuLibraryUnload", library);
}

CUresult CUDAAPI cuDevicePrimaryCtxReset_v2(CUdevice device) {
  BARRACUDA_FORWARD(PFN_cuDevicePrimaryCtxReset_v11000, "cuDevicePrimaryCtxReset_v2", device);
}

CUresult CUDAAPI cuCtxDestroy_v2(CUcontext context) {
  BARRACUDA_FORWARD(PFN_cuCtxDestroy_v4000, "cuCtxDestroy_v2", context);
}

}  // extern "C"
