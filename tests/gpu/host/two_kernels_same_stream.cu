// A producer kernel and a consumer kernel in the same stream: stream order separates them.
#include "suite.cuh"

__global__ void produce(int* x) { x[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x; }
__global__ void consume(const int* x, int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = x[(i + 1) % (gridDim.x * blockDim.x)];
}

int main() {
  int* x = zeroed<int>(8 * 64);
  int* out = zeroed<int>(8 * 64);
  produce<<<8, 64>>>(x);
  consume<<<8, 64>>>(x, out);
  return finish("two_kernels_same_stream", fetch(out));
}
// EXPECT: no-race
