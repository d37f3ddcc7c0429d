// What the driver-API fixtures (driver_api.cpp, nvrtc_program.cpp) share: a primary context, and the
// launch of one of the two fixture kernels of a loaded module, printing what the program prints.
//   publish_racy(int* flag, int* seen): block 0 writes flag[0], block 1 reads it, unordered: a race
//   fill_clean(int* slots, ...):        one slot per thread: race-free
#pragma once
#include <cuda.h>

#include <cstdio>

namespace e2e {

inline bool ok(CUresult result, const char* what) {
  if (result == CUDA_SUCCESS) return true;
  const char* name = nullptr;
  cuGetErrorName(result, &name);
  std::fprintf(stderr, "%s: %s\n", what, name != nullptr ? name : "unknown error");
  return false;
}

// Makes device 0's primary context current; false (with a message) on failure.
inline bool use_primary_context(CUdevice* device) {
  CUcontext context;
  return ok(cuInit(0), "cuInit") && ok(cuDeviceGet(device, 0), "cuDeviceGet") &&
         ok(cuDevicePrimaryCtxRetain(&context, *device), "cuDevicePrimaryCtxRetain") &&
         ok(cuCtxSetCurrent(context), "cuCtxSetCurrent");
}

// Runs the racy or the clean kernel of `module` on 2 blocks of 64 threads and prints "`label`: sum=S"
// (only the values every run writes: what block 1 saw in the racy kernel depends on timing).
inline bool launch_fixture_kernel(CUmodule module, bool racy, const char* label) {
  CUfunction kernel;
  if (!ok(cuModuleGetFunction(&kernel, module, racy ? "publish_racy" : "fill_clean"), "cuModuleGetFunction")) {
    return false;
  }
  constexpr unsigned kBlocks = 2, kThreads = 64;
  CUdeviceptr first, second;
  if (!ok(cuMemAlloc(&first, kBlocks * kThreads * sizeof(int)), "cuMemAlloc") ||
      !ok(cuMemAlloc(&second, sizeof(int)), "cuMemAlloc") ||
      !ok(cuMemsetD32(first, 0, kBlocks * kThreads), "cuMemsetD32")) {
    return false;
  }
  void* args[] = {&first, &second};
  if (!ok(cuLaunchKernel(kernel, kBlocks, 1, 1, kThreads, 1, 1, 0, nullptr, args, nullptr), "cuLaunchKernel") ||
      !ok(cuCtxSynchronize(), "cuCtxSynchronize")) {
    return false;
  }
  int host[kBlocks * kThreads] = {};
  if (!ok(cuMemcpyDtoH(host, first, sizeof host), "cuMemcpyDtoH")) return false;
  long long sum = 0;
  for (int value : host) sum += value;
  std::printf("%s: sum=%lld\n", label, sum);
  return ok(cuMemFree(first), "cuMemFree") && ok(cuMemFree(second), "cuMemFree");
}

}  // namespace e2e
