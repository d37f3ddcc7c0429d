// Every thread takes a ticket with atomicInc and writes the slot it got: tickets are unique because
// there are as many slots as threads: race-free.
#include "suite.cuh"

__global__ void enqueue(unsigned* head, int* slots, unsigned capacity) {
  unsigned ticket = atomicInc(head, capacity - 1);
  slots[ticket] = blockIdx.x * blockDim.x + threadIdx.x;
}

int main() {
  const unsigned capacity = 4 * 128;
  unsigned* head = zeroed<unsigned>(1);
  int* slots = zeroed<int>(capacity);
  enqueue<<<4, 128>>>(head, slots, capacity);
  return finish("ticket_slots", fetch(head));
}
// EXPECT: no-race
