// Floating-point maximum built from an atomicCAS loop on the bit pattern: race-free.
#include "suite.cuh"

__device__ void atomic_max(float* target, float value) {
  int* bits = reinterpret_cast<int*>(target);
  int old = atomicAdd(bits, 0);
  while (__int_as_float(old) < value) {
    int seen = atomicCAS(bits, old, __float_as_int(value));
    if (seen == old) break;
    old = seen;
  }
}

__global__ void block_max(float* result) {
  atomic_max(result, static_cast<float>((blockIdx.x * 37 + threadIdx.x * 11) % 1000));
}

int main() {
  float* result = zeroed<float>(1);
  block_max<<<16, 128>>>(result);
  return finish("cas_float_max", static_cast<long long>(fetch(result)));
}
// EXPECT: no-race
