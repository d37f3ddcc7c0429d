// Ticket lock: thread 0 of each block draws a ticket with a relaxed fetch_add and waits until the
// acquire load of now_serving shows it; the release fetch_add hands over. Race-free.
#include <cuda/atomic>
#include "suite.cuh"

__global__ void locked_append(unsigned* next_ticket, unsigned* now_serving, int* log, int* length) {
  if (threadIdx.x != 0) return;
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> next(*next_ticket), serving(*now_serving);
  unsigned ticket = next.fetch_add(1, cuda::memory_order_relaxed);
  while (serving.load(cuda::memory_order_acquire) != ticket) {}
  log[*length] = blockIdx.x;
  *length += 1;
  serving.fetch_add(1, cuda::memory_order_release);
}

int main() {
  unsigned* next_ticket = zeroed<unsigned>(1);
  unsigned* now_serving = zeroed<unsigned>(1);
  int* log = zeroed<int>(16);
  int* length = zeroed<int>(1);
  locked_append<<<16, 32>>>(next_ticket, now_serving, log, length);
  return finish("ticket_lock", fetch(length));
}
// EXPECT: no-race
