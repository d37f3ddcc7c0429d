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
CUresult intercept_link_add_data(const DriverEntry& entry, CUlinkState state, CUjitInputType type, void* data,
                                 size_t size, const char* name, unsigned int option_count, CUjit_option* options,
                                 void** option_values);

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

}  // namespace barracuda::shim
