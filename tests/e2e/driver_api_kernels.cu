// Kernels of the driver-API fixture (driver_api.cpp), compiled to a fat binary that the program embeds
// and loads with cuModuleLoadData.
extern "C" __global__ void publish_racy(int* flag, int* seen) {
  if (blockIdx.x == 0 && threadIdx.x == 0) flag[0] = 1;        // written by block 0 ...
  if (blockIdx.x == 1 && threadIdx.x == 0) seen[0] = flag[0];  // ... read by block 1, unordered: race
}

extern "C" __global__ void fill_clean(int* slots) {
  slots[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;  // one slot per thread: race-free
}
