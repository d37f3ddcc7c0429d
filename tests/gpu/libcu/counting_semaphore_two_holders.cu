// A cuda::counting_semaphore with 2 permits used as if it were a lock: thread 0 of each of two blocks
// takes a permit and writes the owner record. Two permits let both in at once, and the test makes sure
// they are: after taking its permit each waits (relaxed loads, at most 10 s) until both have one, so
// neither release comes before the other block's acquire. Taking a permit is an acquire that reads no
// release, and the relaxed rendezvous orders nothing: the two writes of the record race.
#include <cuda/atomic>
#include <cuda/semaphore>

#include "suite.cuh"

constexpr int PERMITS = 2;

__device__ cuda::counting_semaphore<cuda::thread_scope_device, PERMITS> permits{PERMITS};

__global__ void record_owner(int* owner, int* holding) {
  if (threadIdx.x != 0 || !acquire_within_10s(permits)) return;
  cuda::atomic_ref<int, cuda::thread_scope_device> both(*holding);
  both.fetch_add(1, cuda::memory_order_relaxed);
  const unsigned long long start = gpu_time_ns();
  while (both.load(cuda::memory_order_relaxed) < 2 && gpu_time_ns() - start < 10'000'000'000ull) __nanosleep(100);
  owner[0] = blockIdx.x + 1;  // @A
  permits.release();
}

int main() {
  int* owner = zeroed<int>(1);
  int* holding = zeroed<int>(1);
  record_owner<<<2, 32>>>(owner, holding);
  return finish("counting_semaphore_two_holders", fetch(holding));  // 2: both held a permit at once
}
// EXPECT: race inter-block global WAW A A
