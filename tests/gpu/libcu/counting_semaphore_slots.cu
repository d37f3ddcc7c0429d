// A device-scope cuda::counting_semaphore with 4 permits bounds how many of 16 blocks use a result pool
// at once. Thread 0 of a block takes a permit, draws a slot index with a relaxed fetch_add (so every
// block gets a distinct slot), and after __syncthreads every thread of the block writes its own
// element of that slot; after a second __syncthreads thread 0 gives the permit back. No two threads
// ever write the same element and nothing on the device reads them (the shared slot index is written
// before and read after a barrier): race-free. The permit is taken with try_acquire() in a loop that
// gives up after 10 s. The result line is the number of slots filled (16), or minus the most permits
// seen held at once if that ever exceeded 4.
#include <cuda/atomic>
#include <cuda/semaphore>

#include "suite.cuh"

constexpr int PERMITS = 4, BLOCKS = 16, THREADS = 64;

__device__ cuda::counting_semaphore<cuda::thread_scope_device, PERMITS> permits{PERMITS};

__global__ void fill(int* slots, int* next_slot, int* holders, int* most_holders) {
  using DeviceInt = cuda::atomic_ref<int, cuda::thread_scope_device>;
  __shared__ int slot;
  if (threadIdx.x == 0) {
    slot = -1;
    if (acquire_within_10s(permits)) {
      const int now = DeviceInt(*holders).fetch_add(1, cuda::memory_order_relaxed) + 1;
      DeviceInt(*most_holders).fetch_max(now, cuda::memory_order_relaxed);
      slot = DeviceInt(*next_slot).fetch_add(1, cuda::memory_order_relaxed);
    }
  }
  __syncthreads();
  if (slot >= 0) slots[slot * THREADS + threadIdx.x] = blockIdx.x * THREADS + threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0 && slot >= 0) {
    DeviceInt(*holders).fetch_sub(1, cuda::memory_order_relaxed);
    permits.release();
  }
}

int main() {
  int* slots = zeroed<int>(BLOCKS * THREADS);
  int* next_slot = zeroed<int>(1);
  int* holders = zeroed<int>(1);
  int* most_holders = zeroed<int>(1);
  fill<<<BLOCKS, THREADS>>>(slots, next_slot, holders, most_holders);
  CHECK(cudaDeviceSynchronize());
  const int most = fetch(most_holders);
  return finish("counting_semaphore_slots", most <= PERMITS ? fetch(next_slot) : -most);
}
// EXPECT: no-race
