// Every thread of many blocks writes only its own element: race-free.
#include "suite.cuh"

__global__ void own_element(int* x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  x[i] = i;
}

int main() {
  const int n = 64 * 256;
  int* x = zeroed<int>(n);
  own_element<<<64, 256>>>(x);
  return finish("disjoint_writes", fetch(x + n - 1));
}
// EXPECT: no-race
