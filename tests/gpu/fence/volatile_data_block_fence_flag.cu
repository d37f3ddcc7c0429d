// The same hand-off between blocks, but the producer's release fence is __threadfence_block(): its
// scope does not reach the consumer's block, so the volatile data read races with the write (scoped).
#include "suite.cuh"

__global__ void hand_off(volatile int* data, int* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    data[0] = 1;  // @A
    __threadfence_block();
    atomicExch(flag, 1);
  } else {
    while (atomicExch(flag, 0) == 0) {
    }
    __threadfence();
    out[0] = data[0];  // @B
  }
}

int main() {
  int* data = zeroed<int>(1);
  int* flag = zeroed<int>(1);
  int* out = zeroed<int>(1);
  hand_off<<<2, 32>>>(data, flag, out);
  return finish("volatile_data_block_fence_flag", fetch(out));
}
// EXPECT: race scoped global RAW A B
