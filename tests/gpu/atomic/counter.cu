// Every thread of 64 blocks increments one counter with atomicAdd: atomics never race each other.
#include "suite.cuh"

__global__ void count(unsigned* counter) { atomicAdd(counter, 1u); }

int main() {
  unsigned* counter = zeroed<unsigned>(1);
  count<<<64, 256>>>(counter);
  return finish("counter", fetch(counter));
}
// EXPECT: no-race
