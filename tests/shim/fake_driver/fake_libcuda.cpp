// A CPU stand-in for libcuda.so.1, for testing the preload shim where there is no GPU. It implements the
// driver calls apps/driver_api_app.cpp makes (graphs: fake_graphs.cpp), "runs" the marker kernel on the host, and answers
// cuGetProcAddress with distinct legacy and per-thread-stream launch functions like the real driver.
// Device memory is host memory; the marker value comes from the PTX of the loaded image (text, or the PTX
// entries of a fat binary, read with the fat-binary reader): see apps/marker.h.
#include <cuda.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>

#include "apps/marker.h"
#include "fake_driver/fake_kernel.h"
#include "fatbin/error.h"
#include "fatbin/image.h"

namespace {

using barracuda::shim::testing::kOriginalMarker;
using barracuda::shim::testing::kReplacedMarker;
using barracuda::shim::testing::kReplacedMarkerText;

struct FakeModule {
  unsigned marker;
};

struct FakeFunction {
  FakeModule* module;
  std::string name;
};

// An image whose PTX carries the replaced constant runs the replaced kernel; any other runs the original.
bool has_replaced_marker(const void* image) {
  try {
    for (const auto& container : barracuda::fatbin::read_image(image).containers) {
      for (const auto& entry : container.entries) {
        if (entry.text().find(kReplacedMarkerText) != std::string_view::npos) return true;
      }
    }
  } catch (const barracuda::fatbin::FormatError&) {
  }
  return false;
}

FakeModule* load(const void* image) {
  return new FakeModule{has_replaced_marker(image) ? kReplacedMarker : kOriginalMarker};
}

CUresult get_function(CUfunction* function, void* module, const char* name) {
  if (function == nullptr || module == nullptr || name == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (std::string_view(name) != "marker") return CUDA_ERROR_NOT_FOUND;
  *function = reinterpret_cast<CUfunction>(new FakeFunction{static_cast<FakeModule*>(module), name});
  return CUDA_SUCCESS;
}

}  // namespace

CUresult run_fake_kernel(CUfunction function, unsigned grid_x, unsigned grid_y, unsigned grid_z, unsigned block_x,
                         unsigned block_y, unsigned block_z, void** params) {
  auto* fake = reinterpret_cast<FakeFunction*>(function);
  if (fake == nullptr || params == nullptr) return CUDA_ERROR_INVALID_VALUE;
  auto* out = reinterpret_cast<unsigned*>(*static_cast<CUdeviceptr*>(params[0]));
  unsigned threads = grid_x * grid_y * grid_z * block_x * block_y * block_z;
  for (unsigned i = 0; i < threads; ++i) out[i] = fake->module->marker + i;
  return CUDA_SUCCESS;
}

namespace {

CUresult launch_legacy(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                       unsigned, CUstream, void** params, void**) {
  return run_fake_kernel(f, gx, gy, gz, bx, by, bz, params);
}

CUresult launch_per_thread(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                           unsigned bz, unsigned, CUstream, void** params, void**) {
  return run_fake_kernel(f, gx, gy, gz, bx, by, bz, params);
}

}  // namespace

extern "C" {

CUresult CUDAAPI cuGetErrorName(CUresult, const char** name) {
  *name = "fake error";
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuInit(unsigned int) { return CUDA_SUCCESS; }
CUresult CUDAAPI cuDeviceGet(CUdevice* device, int ordinal) {
  *device = ordinal;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext* context, CUdevice) {
  static int primary;
  *context = reinterpret_cast<CUcontext>(&primary);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice) { return CUDA_SUCCESS; }
CUresult CUDAAPI cuCtxSetCurrent(CUcontext) { return CUDA_SUCCESS; }
CUresult CUDAAPI cuCtxSynchronize() { return CUDA_SUCCESS; }
CUresult CUDAAPI cuMemAlloc(CUdeviceptr* pointer, size_t bytes) {
  *pointer = reinterpret_cast<CUdeviceptr>(std::calloc(1, bytes));
  return *pointer != 0 ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}
CUresult CUDAAPI cuMemFree(CUdeviceptr pointer) {
  std::free(reinterpret_cast<void*>(pointer));
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemsetD32(CUdeviceptr pointer, unsigned int value, size_t count) {
  auto* words = reinterpret_cast<unsigned*>(pointer);
  for (size_t i = 0; i < count; ++i) words[i] = value;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemcpyDtoH(void* host, CUdeviceptr device, size_t bytes) {
  std::memcpy(host, reinterpret_cast<const void*>(device), bytes);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleLoadData(CUmodule* module, const void* image) {
  *module = reinterpret_cast<CUmodule>(load(image));
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuModuleLoad(CUmodule* module, const char* path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return CUDA_ERROR_FILE_NOT_FOUND;
  std::string image{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  return cuModuleLoadData(module, image.c_str());
}
CUresult CUDAAPI cuModuleLoadDataEx(CUmodule* module, const void* image, unsigned int, CUjit_option*, void**) {
  return cuModuleLoadData(module, image);
}
CUresult CUDAAPI cuModuleLoadFatBinary(CUmodule* module, const void* fatbin) { return cuModuleLoadData(module, fatbin); }
CUresult CUDAAPI cuModuleUnload(CUmodule module) {
  delete reinterpret_cast<FakeModule*>(module);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuModuleGetFunction(CUfunction* function, CUmodule module, const char* name) {
  return get_function(function, module, name);
}

CUresult CUDAAPI cuLibraryLoadData(CUlibrary* library, const void* code, CUjit_option*, void**, unsigned int,
                                   CUlibraryOption*, void**, unsigned int) {
  *library = reinterpret_cast<CUlibrary>(load(code));
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuLibraryUnload(CUlibrary library) {
  delete reinterpret_cast<FakeModule*>(library);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuLibraryGetKernel(CUkernel* kernel, CUlibrary library, const char* name) {
  return get_function(reinterpret_cast<CUfunction*>(kernel), library, name);
}
CUresult CUDAAPI cuKernelGetFunction(CUfunction* function, CUkernel kernel) {
  *function = reinterpret_cast<CUfunction>(kernel);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuFuncGetName(const char** name, CUfunction function) {
  *name = reinterpret_cast<FakeFunction*>(function)->name.c_str();
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                unsigned bz, unsigned shared, CUstream stream, void** params, void** extra) {
  return launch_legacy(f, gx, gy, gz, bx, by, bz, shared, stream, params, extra);
}
CUresult CUDAAPI cuLaunchKernel_ptsz(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                     unsigned bz, unsigned shared, CUstream stream, void** params, void** extra) {
  return launch_per_thread(f, gx, gy, gz, bx, by, bz, shared, stream, params, extra);
}
CUresult CUDAAPI cuLaunchKernelEx(const CUlaunchConfig* config, CUfunction f, void** params, void**) {
  return run_fake_kernel(f, config->gridDimX, config->gridDimY, config->gridDimZ, config->blockDimX, config->blockDimY,
             config->blockDimZ, params);
}

CUresult CUDAAPI cuLaunchCooperativeKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                           unsigned by, unsigned bz, unsigned, CUstream, void** params) {
  return run_fake_kernel(f, gx, gy, gz, bx, by, bz, params);
}

CUresult CUDAAPI cuGetProcAddress(const char* symbol, void** function, int, cuuint64_t flags,
                                  CUdriverProcAddressQueryResult* status) {
  std::string_view name = symbol != nullptr ? symbol : "";
  *function = nullptr;
  if (name == "cuLaunchKernel") {
    bool per_thread = (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) != 0;
    *function = per_thread ? reinterpret_cast<void*>(&launch_per_thread) : reinterpret_cast<void*>(&launch_legacy);
  }
  if (status != nullptr) *status = *function != nullptr ? CU_GET_PROC_ADDRESS_SUCCESS : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  return *function != nullptr ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

}  // extern "C"
