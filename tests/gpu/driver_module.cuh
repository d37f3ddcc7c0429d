// What the driver-API programs share: a CUresult check and loading the module file that the build
// put next to the executable (<executable><suffix>) with cuModuleLoadData.
#pragma once
#include <cuda.h>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>

#define DRIVER_CHECK(call)                                                  \
  do {                                                                      \
    CUresult driver_status_ = (call);                                       \
    if (driver_status_ != CUDA_SUCCESS) {                                   \
      const char* text_ = nullptr;                                          \
      cuGetErrorString(driver_status_, &text_);                             \
      std::fprintf(stderr, "%s: %s\n", #call, text_ ? text_ : "?");         \
      std::exit(1);                                                         \
    }                                                                       \
  } while (0)

// Creates the primary context of device 0 and loads <this executable><suffix> into it.
inline CUmodule load_module_next_to_executable(const char* suffix) {
  char self[PATH_MAX] = {};
  if (readlink("/proc/self/exe", self, sizeof self - 1) < 0) {
    std::perror("readlink /proc/self/exe");
    std::exit(1);
  }
  std::string path = std::string(self) + suffix;
  std::ifstream file(path, std::ios::binary);
  std::string image((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (image.empty()) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    std::exit(1);
  }
  CUdevice device;
  CUcontext context;
  CUmodule module;
  DRIVER_CHECK(cuInit(0));
  DRIVER_CHECK(cuDeviceGet(&device, 0));
  DRIVER_CHECK(cuDevicePrimaryCtxRetain(&context, device));
  DRIVER_CHECK(cuCtxSetCurrent(context));
  DRIVER_CHECK(cuModuleLoadData(&module, image.c_str()));
  return module;
}
