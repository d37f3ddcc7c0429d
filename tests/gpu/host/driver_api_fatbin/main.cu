// Driver-API application: loads the fat binary (sm_90 cubin + PTX) built next to it with
// cuModuleLoadData and launches its kernel, each thread writing its own element: race-free.
#include "driver_module.cuh"

int main() {
  CUmodule module = load_module_next_to_executable(".module.fatbin");
  CUfunction kernel;
  CUdeviceptr x, out;
  DRIVER_CHECK(cuModuleGetFunction(&kernel, module, "scale"));
  DRIVER_CHECK(cuMemAlloc(&x, 64 * sizeof(int)));
  DRIVER_CHECK(cuMemAlloc(&out, sizeof(int)));
  DRIVER_CHECK(cuMemsetD32(out, 0, 1));
  void* args[] = {&x, &out};
  DRIVER_CHECK(cuLaunchKernel(kernel, 2, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr));
  int first = 0;
  DRIVER_CHECK(cuMemcpyDtoH(&first, x, sizeof first));
  std::printf("driver_api_fatbin: %d\n", first);
  return 0;
}
// EXPECT: no-race
