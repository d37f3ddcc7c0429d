// The commonest idiom of GPU graph code: every thread that finds work sets a "changed" flag to 1, with
// no read of the flag during the launch (the host reads it afterwards). Many blocks store the same value
// to the same word: a same-value write-write (a warning), not a race.
#include "suite.cuh"

__global__ void relax(const int* dist, int* next, int* changed) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (dist[v] == 0) {
    next[v] = 1;
    *changed = 1;
  }
}

int main() {
  int* dist = zeroed<int>(1024);
  int* next = zeroed<int>(1024);
  int* changed = zeroed<int>(1);
  relax<<<8, 128>>>(dist, next, changed);
  return finish("same_value_flag", fetch(changed));
}
// EXPECT: no-race
