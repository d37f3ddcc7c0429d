// Open-addressing hash table: distinct keys claim slots with atomicCAS (linear probing) and the
// claiming thread stores the value plainly; a second kernel looks keys up: race-free.
#include "suite.cuh"

constexpr unsigned CAPACITY = 2048, EMPTY = 0xffffffffu;

__global__ void insert(unsigned* keys, int* values) {
  unsigned key = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned slot = (key * 2654435761u) % CAPACITY;; slot = (slot + 1) % CAPACITY) {
    if (atomicCAS(&keys[slot], EMPTY, key) == EMPTY) {
      values[slot] = static_cast<int>(key) * 3;
      return;
    }
  }
}

__global__ void lookup(const unsigned* keys, const int* values, int* found) {
  unsigned key = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned slot = (key * 2654435761u) % CAPACITY;; slot = (slot + 1) % CAPACITY)
    if (keys[slot] == key) { found[key] = values[slot]; return; }
}

int main() {
  unsigned* keys = nullptr;
  CHECK(cudaMalloc(&keys, CAPACITY * sizeof(unsigned)));
  CHECK(cudaMemset(keys, 0xff, CAPACITY * sizeof(unsigned)));
  int* values = zeroed<int>(CAPACITY);
  int* found = zeroed<int>(1024);
  insert<<<8, 128>>>(keys, values);
  lookup<<<8, 128>>>(keys, values, found);
  return finish("hash_insert_distinct", fetch(found + 1023));
}
// EXPECT: no-race
