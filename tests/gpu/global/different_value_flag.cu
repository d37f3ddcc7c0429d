// Two blocks set one status word to different values with nothing ordering them: which value survives
// depends on the schedule. A write-write race (not a same-value one).
#include "suite.cuh"

__global__ void report_status(int* status) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    *status = 1;  // @A
  } else {
    *status = 2;  // @B
  }
}

int main() {
  int* status = zeroed<int>(1);
  report_status<<<2, 32>>>(status);
  return finish("different_value_flag", fetch(status) != 0);
}
// EXPECT: race inter-block global WAW A B
