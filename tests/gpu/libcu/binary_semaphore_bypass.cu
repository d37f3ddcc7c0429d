// The counter of binary_semaphore_lock with two blocks: block 0 updates it holding the device-scope
// cuda::binary_semaphore (try_acquire() loop, at most 10 s), block 1 updates it without taking the
// semaphore. Nothing orders block 1's read-modify-write with block 0's: the two writes race (WAW), and
// a read of one block races with the other's write (RAW or WAR, by which comes first). Each update is
// one source line; with only two updaters every interleaving gives exactly one write-write and one
// read-write race on lines A and B (with a third updater a bypass falling between two locked updates
// could give both RAW and WAR).
#include <cuda/semaphore>

#include "suite.cuh"

__device__ cuda::binary_semaphore<cuda::thread_scope_device> counter_lock{1};

__global__ void add(int* counter) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    if (!acquire_within_10s(counter_lock)) return;
    counter[0] += 1;  // @A
    counter_lock.release();
  } else {
    counter[0] += 2;  // @B
  }
}

int main() {
  int* counter = zeroed<int>(1);
  add<<<2, 32>>>(counter);
  return finish("binary_semaphore_bypass", fetch(counter));  // 3, or 1 or 2 when an update is lost
}
// EXPECT: race inter-block global WAW A B
// EXPECT: race inter-block global RAW A B
