// Thread 0 of every block adds to a global counter with a plain read-modify-write while it holds a
// device-scope cuda::binary_semaphore (a __device__ global, initially 1). Taking it is an acquire
// exchange that reads the 1 stored by the previous holder's release store, so the critical sections
// are ordered one after the other: race-free. The semaphore is taken with try_acquire() (the same
// acquire exchange that acquire() loops on) in a loop that gives up after 10 s, so that a run that
// goes wrong still ends (the result line then falls short of 136).
#include <cuda/semaphore>

#include "suite.cuh"

__device__ cuda::binary_semaphore<cuda::thread_scope_device> counter_lock{1};

__global__ void add_under_lock(int* counter) {
  if (threadIdx.x != 0 || !acquire_within_10s(counter_lock)) return;
  const int seen = counter[0];
  counter[0] = seen + blockIdx.x + 1;
  counter_lock.release();
}

int main() {
  int* counter = zeroed<int>(1);
  add_under_lock<<<16, 32>>>(counter);
  return finish("binary_semaphore_lock", fetch(counter));  // 1 + 2 + ... + 16 = 136
}
// EXPECT: no-race
