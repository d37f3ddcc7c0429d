// Separate compilation (-rdc=true): the kernel here calls a __device__ function defined in
// record.cu, resolved by the device linker; the racy store is in that other translation unit.
#include "suite.cuh"

extern __device__ void record_owner(int* slot, int owner);

__global__ void claim(int* slot) {
  if (threadIdx.x == 0) record_owner(slot, blockIdx.x + 1);
}

int main() {
  int* slot = zeroed<int>(1);
  claim<<<2, 32>>>(slot);
  return finish("rdc_race", fetch(slot));
}
// BUILD: -rdc=true
// EXPECT: race inter-block global WAW A A
