// Plain CUDA kernels (no knowledge of barracuda) that instrumented_kernel_gpu_test.cpp compiles to
// PTX, instruments, links with the device runtime, runs, and checks: both the app's results and the
// records must come out right. Line numbers matter: the test looks the sites up by source line.
extern "C" __global__ void store_coalesced(int* data) {
  data[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;  // line 5: one affine store per warp
}

extern "C" __global__ void shared_reverse(int* out) {
  __shared__ int tile[64];
  tile[threadIdx.x] = threadIdx.x;     // line 10: shared store, stride 4
  __syncthreads();                     // line 11: barrier
  out[threadIdx.x] = tile[63 - threadIdx.x];  // line 12: shared load, stride -4; global store
}

extern "C" __global__ void divergent_store(int* data) {
  if (threadIdx.x % 2 == 0) data[threadIdx.x] = 1;  // line 16: branch; half the lanes store
}
