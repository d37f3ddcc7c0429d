// A read whose index is off by the distance between two buffers: thread 0 of block 0 reads
// `index[shift]`, which lands on `data[0]`, the word thread 0 of block 1 writes. The race on
// `data[0]` is reported with the read named as an out-of-bounds access through parameter 0.
#include <cstdio>

__global__ void gather(const int* index, int* data, long shift) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) data[1] = index[shift];
  if (blockIdx.x == 1) data[0] = 7;
}

int main() {
  int *index = nullptr, *data = nullptr;
  cudaMalloc(&index, 256 * sizeof(int));
  cudaMalloc(&data, 256 * sizeof(int));
  cudaMemset(data, 0, 256 * sizeof(int));
  const long shift = data - index;  // index[shift] is data[0]
  gather<<<2, 32>>>(index, data, shift);
  const cudaError_t done = cudaDeviceSynchronize();
  std::printf("gather: %s\n", cudaGetErrorName(done));
  return done == cudaSuccess ? 0 : 1;
}
