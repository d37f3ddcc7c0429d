// The latch gather of latch_block_gather, but thread 0 peeks at the last slot (written by thread 127,
// warp 3) after its own count_down() and before wait(). Counting down is only a release: it orders
// thread 0's earlier accesses for the threads that wait, not thread 127's write for thread 0, so the
// peek and that write are unordered (an inter-warp race in shared memory; RAW when the write comes
// first). The reads after wait() are ordered, as in latch_block_gather.
#include <cuda/latch>
#include <new>

#include "suite.cuh"

constexpr int N = 128;

__global__ void gather(int* out, int* peeked) {
  using BlockLatch = cuda::latch<cuda::thread_scope_block>;
  __shared__ alignas(BlockLatch) unsigned char latch_storage[sizeof(BlockLatch)];
  __shared__ int slot[N];
  BlockLatch* written = reinterpret_cast<BlockLatch*>(latch_storage);
  if (threadIdx.x == 0) new (written) BlockLatch(blockDim.x);
  __syncthreads();
  const int t = threadIdx.x;
  slot[t] = t + 1;                              // @A
  written->count_down();
  if (t == 0) peeked[0] = slot[N - 1];          // @B
  written->wait();
  out[t] = slot[(t + 32) % N];
}

int main() {
  int* out = zeroed<int>(N);
  int* peeked = zeroed<int>(1);
  gather<<<1, N>>>(out, peeked);
  return finish("latch_read_before_wait", fetch(out));  // slot[32] = 33 (the peeked value is left out)
}
// EXPECT: race inter-warp shared RAW A B
