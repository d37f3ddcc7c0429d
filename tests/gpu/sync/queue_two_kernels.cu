// Lock-free multi-producer queue: producers reserve slots with atomicAdd on the tail and fill them;
// a second kernel (ordered by the stream) consumes: race-free.
#include "suite.cuh"

__global__ void produce(int* slots, unsigned* tail) {
  if ((blockIdx.x + threadIdx.x) % 3 != 0) return;
  unsigned slot = atomicAdd(tail, 1u);
  slots[slot] = blockIdx.x * 1000 + threadIdx.x;
}

__global__ void consume(const int* slots, const unsigned* tail, long long* sum) {
  for (unsigned i = threadIdx.x; i < *tail; i += blockDim.x) atomicAdd(reinterpret_cast<unsigned long long*>(sum), slots[i]);
}

int main() {
  int* slots = zeroed<int>(8 * 128);
  unsigned* tail = zeroed<unsigned>(1);
  long long* sum = zeroed<long long>(1);
  produce<<<8, 128>>>(slots, tail);
  consume<<<1, 128>>>(slots, tail, sum);
  return finish("queue_two_kernels", fetch(sum));
}
// EXPECT: no-race
