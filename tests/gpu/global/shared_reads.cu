// All threads of all blocks read the same global words; only reads: race-free.
#include "suite.cuh"

__global__ void read_coefficients(const int* coeff, int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = coeff[0] * i + coeff[1];
}

int main() {
  const int n = 8 * 128;
  int* coeff = zeroed<int>(2);
  int* out = zeroed<int>(n);
  read_coefficients<<<8, 128>>>(coeff, out);
  return finish("shared_reads", fetch(out + 5));
}
// EXPECT: no-race
