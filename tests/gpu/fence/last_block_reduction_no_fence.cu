// The last-block reduction without any fence: the last block's reads of the other blocks' partial
// sums are not ordered after their stores.
#include "suite.cuh"

__global__ void sum(const int* in, int* partial, unsigned* tickets, int* total) {
  if (threadIdx.x != 0) return;
  partial[blockIdx.x] = in[blockIdx.x] + 1;                    // @A
  if (atomicInc(tickets, gridDim.x) == gridDim.x - 1) {
    int acc = 0;
    for (int b = 0; b < gridDim.x; ++b) acc += partial[b];     // @B
    *total = acc;
  }
}

int main() {
  const int blocks = 8;
  int* in = zeroed<int>(blocks);
  int* partial = zeroed<int>(blocks);
  unsigned* tickets = zeroed<unsigned>(1);
  int* total = zeroed<int>(1);
  sum<<<blocks, 32>>>(in, partial, tickets, total);
  return finish("last_block_reduction_no_fence", fetch(total));
}
// EXPECT: race inter-block global RAW A B
