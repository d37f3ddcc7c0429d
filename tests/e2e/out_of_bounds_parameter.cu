// A gather whose index arithmetic is off by the distance between two buffers: every thread reads
// `index[shift + v]`, which lands in `data`, the buffer other threads write. The race on `data` is
// reported with the read named as an out-of-bounds access through the kernel's parameter 0.
#include <cstdio>

__global__ void gather(const int* index, int* data, long shift) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  const int x = index[shift + v];
  data[(v + 128) % 256] = x + 1;
}

int main() {
  int *index = nullptr, *data = nullptr;
  cudaMalloc(&index, 256 * sizeof(int));
  cudaMalloc(&data, 256 * sizeof(int));
  cudaMemset(data, 0, 256 * sizeof(int));
  const long shift = data - index;  // reading index[shift + v] reads data[v]
  gather<<<2, 128>>>(index, data, shift);
  const cudaError_t done = cudaDeviceSynchronize();
  std::printf("gather: %s\n", cudaGetErrorName(done));
  return done == cudaSuccess ? 0 : 1;
}
