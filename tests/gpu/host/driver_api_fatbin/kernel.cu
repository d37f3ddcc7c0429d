// Kernel of driver_api_fatbin: compiled to a fat binary at build time, loaded with cuModuleLoadData.
extern "C" __global__ void scale(int* x, int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  x[i] = 3 * i;
  if (i == 0) out[0] = 7;
}
