// An unfenced acquire next to a real race: the producer writes `late` after its release, so the
// consumer's read of it is ordered by nothing (a data race), while its read of `data` is only an
// unfenced acquire (a warning). Only the race counts.
#include "suite.cuh"

__global__ void hand_off(int* data, int* late, int* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    data[0] = 42;
    __threadfence();
    atomicExch(flag, 1);
    late[0] = 7;                           // @A
  } else {
    while (atomicExch(flag, 0) == 0) {}
    out[0] = data[0];
    out[1] = late[0];                      // @B
  }
}

int main() {
  int* data = zeroed<int>(1);
  int* late = zeroed<int>(1);
  int* flag = zeroed<int>(1);
  int* out = zeroed<int>(2);
  hand_off<<<2, 32>>>(data, late, flag, out);
  return finish("unfenced_acquire_unrelated_race", fetch(out));
}
// EXPECT: race inter-block global RAW A B
