// A hand-off chain that mixes scopes (HRF-indirect): inside block 0, warp 0 publishes the data to warp
// 1 with __threadfence_block() + atomicExch_block; warp 1 acquires it (spin + __threadfence_block()),
// then passes it on to block 1 with __threadfence() + a device-scope atomicExch. Block 1 spins on that
// flag and overwrites the data with no fence after the spin. Ordered transitively but for that fence:
// a warning ("unfenced acquire"), not a data race.
#include "suite.cuh"

__global__ void chain(int* data, int* block_flag, int* device_flag, int* out) {
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) {
      data[0] = 1;
      __threadfence_block();
      atomicExch_block(block_flag, 1);
    } else if (threadIdx.x == 32) {
      while (atomicExch_block(block_flag, 0) == 0) {}
      __threadfence_block();
      out[0] = data[0];
      __threadfence();
      atomicExch(device_flag, 1);
    }
  } else if (threadIdx.x == 0) {
    while (atomicExch(device_flag, 0) == 0) {}
    data[0] = 2;
  }
}

int main() {
  int* data = zeroed<int>(1);
  int* block_flag = zeroed<int>(1);
  int* device_flag = zeroed<int>(1);
  int* out = zeroed<int>(1);
  chain<<<2, 64>>>(data, block_flag, device_flag, out);
  return finish("unfenced_acquire_mixed_scope", fetch(out) + fetch(data));
}
// EXPECT: no-race
