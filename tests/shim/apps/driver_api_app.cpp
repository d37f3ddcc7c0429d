// A driver-API application linked with -lcuda: loads the marker kernel as PTX text (cuModuleLoadData), as
// a fat binary (cuModuleLoadDataEx, cuModuleLoadFatBinary) and as a library (cuLibraryLoadData),
// launches it through cuLaunchKernel, cuLaunchKernelEx, cuLaunchCooperativeKernel and the
// per-thread-stream cuLaunchKernel, and prints the marker value each launch wrote. The last one is found
// the way cudart finds the driver: dlopen("libcuda.so.1"), dlsym(handle, "cuGetProcAddress_v2"), then
// cuGetProcAddress with flags.
// Usage: driver_api_app MARKER.ptx MARKER.fatbin
#include <cuda.h>
#include <cudaTypedefs.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "driver_check.h"

namespace {

struct Grid {
  unsigned x, y, threads;
  unsigned count() const { return x * y * threads; }
};

// Reads back what a marker launch wrote and prints the marker, checking every value is marker + index.
void report(const char* what, CUdeviceptr out, Grid grid) {
  std::vector<unsigned> values(grid.count());
  CHECK(cuCtxSynchronize());
  CHECK(cuMemcpyDtoH(values.data(), out, values.size() * sizeof(unsigned)));
  unsigned marker = values[0];
  for (unsigned i = 0; i < values.size(); ++i) {
    if (values[i] != marker + i) {
      std::printf("%s: value %u is 0x%x, expected 0x%x\n", what, i, values[i], marker + i);
      std::exit(1);
    }
  }
  std::printf("%s: marker 0x%x in %zu values\n", what, marker, values.size());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s MARKER.ptx MARKER.fatbin\n", argv[0]);
    return 2;
  }
  std::string ptx = read_file(argv[1]);
  std::string fatbin = read_file(argv[2]);

  CHECK(cuInit(0));
  CUdevice device;
  CHECK(cuDeviceGet(&device, 0));
  CUcontext context;
  CHECK(cuDevicePrimaryCtxRetain(&context, device));
  CHECK(cuCtxSetCurrent(context));
  CUdeviceptr out;
  CHECK(cuMemAlloc(&out, 64 * sizeof(unsigned)));
  void* params[] = {&out};

  CUmodule ptx_module;
  CHECK(cuModuleLoadData(&ptx_module, ptx.c_str()));
  CUfunction ptx_marker;
  CHECK(cuModuleGetFunction(&ptx_marker, ptx_module, "marker"));
  CHECK(cuLaunchKernel(ptx_marker, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr));
  report("ptx module", out, {1, 1, 32});

  CUmodule fatbin_module;
  CHECK(cuModuleLoadDataEx(&fatbin_module, fatbin.data(), 0, nullptr, nullptr));
  CUfunction fatbin_marker;
  CHECK(cuModuleGetFunction(&fatbin_marker, fatbin_module, "marker"));
  CUlaunchConfig config{};
  config.gridDimX = 2;
  config.gridDimY = 1;
  config.gridDimZ = 1;
  config.blockDimX = 16;
  config.blockDimY = 1;
  config.blockDimZ = 1;
  CHECK(cuLaunchKernelEx(&config, fatbin_marker, params, nullptr));
  report("fatbin module", out, {2, 1, 16});

  CUmodule cooperative_module;
  CHECK(cuModuleLoadFatBinary(&cooperative_module, fatbin.data()));
  CUfunction cooperative_marker;
  CHECK(cuModuleGetFunction(&cooperative_marker, cooperative_module, "marker"));
  CHECK(cuLaunchCooperativeKernel(cooperative_marker, 2, 1, 1, 8, 1, 1, 0, nullptr, params));
  report("cooperative", out, {2, 1, 8});

  CUlibrary library;
  CHECK(cuLibraryLoadData(&library, ptx.c_str(), nullptr, nullptr, 0, nullptr, nullptr, 0));
  CUkernel kernel;
  CHECK(cuLibraryGetKernel(&kernel, library, "marker"));
  CUfunction library_marker;
  CHECK(cuKernelGetFunction(&library_marker, kernel));
  void* libcuda = dlopen("libcuda.so.1", RTLD_NOW);
  auto get_proc_address =
      libcuda != nullptr ? reinterpret_cast<PFN_cuGetProcAddress_v12000>(dlsym(libcuda, "cuGetProcAddress_v2")) : nullptr;
  if (get_proc_address == nullptr) {
    std::fprintf(stderr, "driver_api_app: no cuGetProcAddress_v2 in libcuda.so.1: %s\n", dlerror());
    return 1;
  }
  void* launch_per_thread = nullptr;
  CUdriverProcAddressQueryResult status;
  CHECK(get_proc_address("cuLaunchKernel", &launch_per_thread, CUDA_VERSION,
                         CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &status));
  auto launch = reinterpret_cast<PFN_cuLaunchKernel_v7000_ptsz>(launch_per_thread);
  CHECK(launch(library_marker, 1, 2, 1, 8, 1, 1, 0, nullptr, params, nullptr));
  report("library", out, {1, 2, 8});

  // A module loaded from its file (cuModuleLoad): the shim reads the file and treats it like the others.
  CUmodule file_module;
  CHECK(cuModuleLoad(&file_module, argv[1]));
  CUfunction file_marker;
  CHECK(cuModuleGetFunction(&file_marker, file_module, "marker"));
  CHECK(cuLaunchKernel(file_marker, 1, 1, 1, 4, 1, 1, 0, nullptr, params, nullptr));
  report("file module", out, {1, 1, 4});

  CHECK(cuModuleUnload(file_module));
  CHECK(cuLibraryUnload(library));
  CHECK(cuModuleUnload(cooperative_module));
  CHECK(cuModuleUnload(fatbin_module));
  CHECK(cuModuleUnload(ptx_module));
  CHECK(cuMemFree(out));
  CHECK(cuDevicePrimaryCtxRelease(device));
  return 0;
}
