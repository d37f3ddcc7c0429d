// 64-bit and floating-point atomics (add, max, exch) on shared targets from many blocks: race-free.
#include "suite.cuh"

__global__ void accumulate(unsigned long long* sum, long long* maximum, double* dsum, float* fsum,
                           unsigned long long* last) {
  unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(sum, i);
  atomicMax(maximum, static_cast<long long>(i));
  atomicAdd(dsum, 0.5);
  atomicAdd(fsum, 0.25f);
  atomicExch(last, i);
}

int main() {
  auto* sum = zeroed<unsigned long long>(1);
  auto* maximum = zeroed<long long>(1);
  auto* dsum = zeroed<double>(1);
  auto* fsum = zeroed<float>(1);
  auto* last = zeroed<unsigned long long>(1);
  accumulate<<<8, 128>>>(sum, maximum, dsum, fsum, last);
  return finish("wide_atomics", static_cast<long long>(fetch(sum)));
}
// EXPECT: no-race
