// Four streams run kernels concurrently, each on its own buffer: race-free.
#include "suite.cuh"

__global__ void spin_fill(int* x, int rounds) {
  int v = 0;
  for (int r = 0; r < rounds; ++r) v = v * 31 + r;
  x[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

int main() {
  int* buffers[4];
  cudaStream_t streams[4];
  for (int s = 0; s < 4; ++s) {
    buffers[s] = zeroed<int>(4 * 128);
    CHECK(cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking));
    spin_fill<<<4, 128, 0, streams[s]>>>(buffers[s], 1000);
  }
  return finish("concurrent_kernels_disjoint", fetch(buffers[3]));
}
// EXPECT: no-race
