// Kernel of driver_api_ptx: compiled to PTX at build time and loaded with cuModuleLoadData.
extern "C" __global__ void publish_and_read(int* x, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) x[0] = 42;     // @A
  else out[0] = x[0];                 // @B
}
