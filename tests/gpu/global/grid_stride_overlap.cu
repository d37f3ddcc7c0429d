// A grid-stride loop whose stride is one block too short: the first block's last iteration and the
// second block's first touch the same elements.
#include "suite.cuh"

__global__ void fill(int* x, int n) {
  int stride = (gridDim.x - 1) * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    x[i] = blockIdx.x;  // @A
}

int main() {
  const int n = 256;
  int* x = zeroed<int>(n);
  fill<<<2, 128>>>(x, n);  // block 0 covers 0..255 in two steps, block 1 covers 128..255
  return finish("grid_stride_overlap", fetch(x + 200));
}
// EXPECT: race inter-block global WAW A A
