// Two blocks insert the same key: one claims the slot, the other finds the key already there; both
// then store the value plainly.
#include "suite.cuh"

constexpr unsigned CAPACITY = 64, EMPTY = 0xffffffffu;

__global__ void upsert(unsigned* keys, int* values) {
  if (threadIdx.x != 0) return;
  unsigned key = 7;
  for (unsigned slot = key % CAPACITY;; slot = (slot + 1) % CAPACITY) {
    unsigned previous = atomicCAS(&keys[slot], EMPTY, key);
    if (previous == EMPTY || previous == key) {
      values[slot] = blockIdx.x;  // @A
      return;
    }
  }
}

int main() {
  unsigned* keys = nullptr;
  CHECK(cudaMalloc(&keys, CAPACITY * sizeof(unsigned)));
  CHECK(cudaMemset(keys, 0xff, CAPACITY * sizeof(unsigned)));
  int* values = zeroed<int>(CAPACITY);
  upsert<<<2, 32>>>(keys, values);
  return finish("hash_insert_duplicate", fetch(values + 7));
}
// EXPECT: race inter-block global WAW A A
