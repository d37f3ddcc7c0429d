// Barriers that order nothing (each thread touches only its own element): race-free; barracuda may
// warn that they are redundant, which is not a race.
#include "suite.cuh"

__global__ void private_work(int* out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  s[t] *= 2;
  __syncthreads();
  out[t] = s[t];
}

int main() {
  int* out = zeroed<int>(64);
  private_work<<<1, 64>>>(out);
  return finish("redundant_barrier", fetch(out + 63));
}
// EXPECT: no-race
