// The mixed-scope chain the other way: block 1 publishes with __threadfence() + a device-scope
// atomicExch; in block 0, warp 0 spins on that flag but follows the spin only with
// __threadfence_block() (too narrow for a flag set by another block), then hands on within the block
// with atomicExch_block, and warp 1 (spin + __threadfence_block()) overwrites the data. The missing
// piece is the reader's fence scope, not the writer's: a warning ("unfenced acquire"), not a scoped
// race.
#include "suite.cuh"

__global__ void chain(int* data, int* block_flag, int* device_flag, int* out) {
  if (blockIdx.x == 1) {
    if (threadIdx.x == 0) {
      data[0] = 1;
      __threadfence();
      atomicExch(device_flag, 1);
    }
  } else if (threadIdx.x == 0) {
    while (atomicExch(device_flag, 0) == 0) {}
    __threadfence_block();
    atomicExch_block(block_flag, 1);
  } else if (threadIdx.x == 32) {
    while (atomicExch_block(block_flag, 0) == 0) {}
    __threadfence_block();
    out[0] = data[0];
    data[0] = 2;
  }
}

int main() {
  int* data = zeroed<int>(1);
  int* block_flag = zeroed<int>(1);
  int* device_flag = zeroed<int>(1);
  int* out = zeroed<int>(1);
  chain<<<2, 64>>>(data, block_flag, device_flag, out);
  return finish("unfenced_acquire_narrow_fence", fetch(out) + fetch(data));
}
// EXPECT: no-race
