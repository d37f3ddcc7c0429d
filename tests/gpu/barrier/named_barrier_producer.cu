// Producer/consumer with named barrier 1 over 64 threads: warp 0 writes and arrives (bar.arrive),
// warp 1 waits (bar.sync) and reads: the arrive releases the writes, race-free.
#include "suite.cuh"

__global__ void produce_consume(int* out) {
  __shared__ int s[32];
  int t = threadIdx.x;
  if (t < 32) {
    s[t] = t * 7;
    asm volatile("bar.arrive 1, 64;" ::: "memory");
  } else {
    asm volatile("bar.sync 1, 64;" ::: "memory");
    out[t - 32] = s[t - 32];
  }
}

int main() {
  int* out = zeroed<int>(32);
  produce_consume<<<1, 64>>>(out);
  return finish("named_barrier_producer", fetch(out + 1));
}
// EXPECT: no-race
