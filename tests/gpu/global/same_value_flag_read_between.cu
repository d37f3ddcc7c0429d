// Blocks 0 and 2 set a flag to the same value while block 1 reads it: the read can observe the flag
// before or after either write, so it races with them (the same-value writes do not excuse the read).
#include "suite.cuh"

__global__ void set_and_peek(int* flag, int* seen) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x != 1) {
    *flag = 1;  // @A
  } else {
    seen[0] = *flag;  // @B
  }
}

int main() {
  int* flag = zeroed<int>(1);
  int* seen = zeroed<int>(1);
  set_and_peek<<<3, 32>>>(flag, seen);
  return finish("same_value_flag_read_between", fetch(flag));
}
// EXPECT: race inter-block global RAW A B
