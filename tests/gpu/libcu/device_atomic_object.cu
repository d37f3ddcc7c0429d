// A cuda::atomic<int, thread_scope_device> object in device memory (constant-initialised __device__
// variable) used for a ticket counter and exchanged at the end: race-free.
#include <cuda/atomic>
#include "suite.cuh"

__device__ cuda::atomic<int, cuda::thread_scope_device> tickets(0);

__global__ void take(int* slots) {
  int ticket = tickets.fetch_add(1, cuda::memory_order_relaxed);
  slots[ticket] = blockIdx.x;
}

__global__ void drain(int* total) { *total = tickets.exchange(0); }

int main() {
  int* slots = zeroed<int>(4 * 128);
  int* total = zeroed<int>(1);
  take<<<4, 128>>>(slots);
  drain<<<1, 1>>>(total);
  return finish("device_atomic_object", fetch(total));
}
// EXPECT: no-race
