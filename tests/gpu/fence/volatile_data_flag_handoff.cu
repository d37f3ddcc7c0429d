// Flag hand-off between blocks with volatile data: data[0] = 1; __threadfence(); atomicExch(&flag, 1)
// / spin on atomicExch(&flag, 0); __threadfence(); read data[0]. The fences order the data: race-free.
#include "suite.cuh"

__global__ void hand_off(volatile int* data, int* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    data[0] = 1;
    __threadfence();
    atomicExch(flag, 1);
  } else {
    while (atomicExch(flag, 0) == 0) {
    }
    __threadfence();
    out[0] = data[0];
  }
}

int main() {
  int* data = zeroed<int>(1);
  int* flag = zeroed<int>(1);
  int* out = zeroed<int>(1);
  hand_off<<<2, 32>>>(data, flag, out);
  return finish("volatile_data_flag_handoff", fetch(out));
}
// EXPECT: no-race
