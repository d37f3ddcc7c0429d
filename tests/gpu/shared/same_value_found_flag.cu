// A block-wide "found" flag in shared memory: lanes of several warps that find a match set it to 1, a
// barrier later thread 0 reads it. The stores are same-value write-writes (warnings); the barrier
// orders them before the read: no race.
#include "suite.cuh"

__global__ void any_match(const int* keys, int key, int* out) {
  __shared__ int found;
  if (threadIdx.x == 0) found = 0;
  __syncthreads();
  if (keys[blockIdx.x * blockDim.x + threadIdx.x] == key) found = 1;
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = found;
}

int main() {
  int* keys = zeroed<int>(256);
  int* out = zeroed<int>(1);
  any_match<<<1, 256>>>(keys, 0, out);
  return finish("same_value_found_flag", fetch(out));
}
// EXPECT: no-race
