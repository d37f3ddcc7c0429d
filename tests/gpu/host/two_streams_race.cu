// Two kernels in two non-blocking streams write the same buffer with nothing ordering the streams.
#include "suite.cuh"

__global__ void fill(int* x, int value) { x[threadIdx.x] = value; }  // @A

int main() {
  int* x = zeroed<int>(64);
  cudaStream_t a, b;
  CHECK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
  fill<<<1, 64, 0, a>>>(x, 1);
  fill<<<1, 64, 0, b>>>(x, 2);
  return finish("two_streams_race", fetch(x));
}
// EXPECT: race inter-block global WAW A A
