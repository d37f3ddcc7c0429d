// Dynamic parallelism: block 0 of `parent` launches `child`, which calls a device function; both
// kernels may also be launched from the host.
__device__ int bump(int* data, int i) { return ++data[i]; }

__global__ void child(int* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) bump(data, i);
}

__global__ void parent(int* data, int n) {
  if (threadIdx.x == 0) data[blockIdx.x] = 1;
  __syncthreads();
  if (threadIdx.x == 0 && blockIdx.x == 0) child<<<(n + 31) / 32, 32>>>(data, n);
}
