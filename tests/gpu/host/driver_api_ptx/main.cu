// Driver-API application: loads the PTX module built next to it with cuModuleLoadData (the driver
// JIT-compiles it) and launches its kernel with cuLaunchKernel. No CUDA runtime calls.
#include "driver_module.cuh"

int main() {
  CUmodule module = load_module_next_to_executable(".module.ptx");
  CUfunction kernel;
  CUdeviceptr x, out;
  DRIVER_CHECK(cuModuleGetFunction(&kernel, module, "publish_and_read"));
  DRIVER_CHECK(cuMemAlloc(&x, sizeof(int)));
  DRIVER_CHECK(cuMemAlloc(&out, sizeof(int)));
  DRIVER_CHECK(cuMemsetD32(x, 0, 1));
  DRIVER_CHECK(cuMemsetD32(out, 0, 1));
  void* args[] = {&x, &out};
  DRIVER_CHECK(cuLaunchKernel(kernel, 2, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr));
  int result = 0;
  DRIVER_CHECK(cuMemcpyDtoH(&result, out, sizeof result));
  std::printf("driver_api_ptx: %d\n", result);
  return 0;
}
// EXPECT: race inter-block global RAW A B
