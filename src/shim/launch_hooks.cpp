// Kernel launches are announced to the launch observers before and after the driver call.
#include "shim/interceptors.h"
#include "shim/launch_announcement.h"
#include "shim/real_driver.h"

namespace barracuda::shim {
namespace {

// Handles obtained before the shim saw them (or through entry points it does not wrap, such as the
// kernel of a graph node) are named by the driver: cuFuncGetName for a CUfunction, cuKernelGetName for a
// CUkernel passed in its place; their module is the registry's entry for the CUmodule or CUlibrary the
// driver says they belong to, where the shim saw it load, or else the one module whose kernels the
// shim knows by that name (a library's kernel reached through its per-context CUfunction).
ModuleId or_by_name(ModuleId module, const char* name) {
  return module != ModuleId::Unknown ? module : shim_runtime().kernels.sole_module_of_kernel(name);
}

void identify_with_driver(CUfunction function) {
  static const auto function_name = reinterpret_cast<PFN_cuFuncGetName_v12030>(libcuda_symbol("cuFuncGetName"));
  static const auto kernel_name = reinterpret_cast<PFN_cuKernelGetName_v12030>(libcuda_symbol("cuKernelGetName"));
  static const auto function_module = reinterpret_cast<PFN_cuFuncGetModule_v11000>(libcuda_symbol("cuFuncGetModule"));
  static const auto kernel_library = reinterpret_cast<PFN_cuKernelGetLibrary_v12050>(libcuda_symbol("cuKernelGetLibrary"));
  KernelRegistry& kernels = shim_runtime().kernels;
  const char* name = nullptr;
  if (function_name != nullptr && function_name(&name, function) == CUDA_SUCCESS && name != nullptr) {
    CUmodule module = nullptr;
    const bool known = function_module != nullptr && function_module(&module, function) == CUDA_SUCCESS;
    kernels.add_named(function, or_by_name(known ? kernels.module_of(module) : ModuleId::Unknown, name), name);
    return;
  }
  auto* as_kernel = reinterpret_cast<CUkernel>(function);
  if (kernel_name != nullptr && kernel_name(&name, as_kernel) == CUDA_SUCCESS && name != nullptr) {
    CUlibrary library = nullptr;
    const bool known = kernel_library != nullptr && kernel_library(&library, as_kernel) == CUDA_SUCCESS;
    kernels.add_named(function, or_by_name(known ? kernels.module_of(library) : ModuleId::Unknown, name), name);
    return;
  }
  kernels.add_named(function, ModuleId::Unknown, {});
}

}  // namespace

const KernelIdentity& identify(CUfunction function) {
  KernelRegistry& kernels = shim_runtime().kernels;
  if (const KernelIdentity* known = kernels.find(function)) return *known;
  identify_with_driver(function);
  return *kernels.find(function);
}

CUresult intercept_launch_kernel(const DriverEntry& entry, CUfunction function, unsigned int grid_x,
                                 unsigned int grid_y, unsigned int grid_z, unsigned int block_x,
                                 unsigned int block_y, unsigned int block_z, unsigned int shared_mem_bytes,
                                 CUstream stream, void** kernel_params, void** extra) {
  auto real = entry.real_as<PFN_cuLaunchKernel_v4000>();
  return observe_launch(entry.symbol, function, {grid_x, grid_y, grid_z}, {block_x, block_y, block_z},
                        shared_mem_bytes, stream, kernel_params, [&] {
                          return real(function, grid_x, grid_y, grid_z, block_x, block_y, block_z,
                                      shared_mem_bytes, stream, kernel_params, extra);
                        });
}

CUresult intercept_launch_kernel_ex(const DriverEntry& entry, const CUlaunchConfig* config, CUfunction function,
                                    void** kernel_params, void** extra) {
  auto real = entry.real_as<PFN_cuLaunchKernelEx_v11060>();
  auto launch = [&] { return real(config, function, kernel_params, extra); };
  if (config == nullptr) return launch();  // the driver reports the error
  return observe_launch(entry.symbol, function, {config->gridDimX, config->gridDimY, config->gridDimZ},
                        {config->blockDimX, config->blockDimY, config->blockDimZ}, config->sharedMemBytes,
                        config->hStream, kernel_params, launch);
}

CUresult intercept_launch_cooperative_kernel(const DriverEntry& entry, CUfunction function, unsigned int grid_x,
                                             unsigned int grid_y, unsigned int grid_z, unsigned int block_x,
                                             unsigned int block_y, unsigned int block_z,
                                             unsigned int shared_mem_bytes, CUstream stream,
                                             void** kernel_params) {
  auto real = entry.real_as<PFN_cuLaunchCooperativeKernel_v9000>();
  return observe_launch(entry.symbol, function, {grid_x, grid_y, grid_z}, {block_x, block_y, block_z},
                        shared_mem_bytes, stream, kernel_params, [&] {
                          return real(function, grid_x, grid_y, grid_z, block_x, block_y, block_z,
                                      shared_mem_bytes, stream, kernel_params);
                        });
}

}  // namespace barracuda::shim
