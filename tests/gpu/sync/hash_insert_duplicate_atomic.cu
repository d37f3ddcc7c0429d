// Duplicate-key upsert with the value written by atomicExch: race-free.
#include "suite.cuh"

constexpr unsigned CAPACITY = 64, EMPTY = 0xffffffffu;

__global__ void upsert(unsigned* keys, int* values) {
  unsigned key = threadIdx.x % 4;
  for (unsigned slot = key % CAPACITY;; slot = (slot + 1) % CAPACITY) {
    unsigned previous = atomicCAS(&keys[slot], EMPTY, key);
    if (previous == EMPTY || previous == key) {
      atomicExch(&values[slot], static_cast<int>(blockIdx.x));
      return;
    }
  }
}

int main() {
  unsigned* keys = nullptr;
  CHECK(cudaMalloc(&keys, CAPACITY * sizeof(unsigned)));
  CHECK(cudaMemset(keys, 0xff, CAPACITY * sizeof(unsigned)));
  int* values = zeroed<int>(CAPACITY);
  upsert<<<4, 64>>>(keys, values);
  return finish("hash_insert_duplicate_atomic", fetch(values) >= 0);
}
// EXPECT: no-race
