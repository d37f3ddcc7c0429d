// A volatile flag written after __threadfence() is the strong access of a release pattern, and the
// consumer's volatile spin followed by __threadfence() an acquire: data and flag race-free.
#include "suite.cuh"

__global__ void hand_off(int* data, volatile int* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    data[0] = 7;
    __threadfence();
    *flag = 1;
  } else {
    while (*flag == 0) {
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
  return finish("volatile_flag_threadfence", fetch(out));
}
// EXPECT: no-race
