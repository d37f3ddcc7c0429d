// 2M threads write into a buffer half that size: thread i and thread i + 1M (another block) collide.
#include "suite.cuh"

__global__ void fold(int* y, int half) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i % half] = i;  // @A
}

int main() {
  const int blocks = 8192, threads = 256, half = blocks * threads / 2;
  int* y = zeroed<int>(half);
  fold<<<blocks, threads>>>(y, half);
  return finish("million_threads_fold", fetch(y + 7));
}
// EXPECT: race inter-block global WAW A A
