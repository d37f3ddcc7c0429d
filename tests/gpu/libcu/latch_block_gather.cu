// Every thread of a block writes its own shared slot, counts down a cuda::latch<thread_scope_block>
// (built in place in shared memory: it has no default constructor) and waits on it; then each thread
// reads the slot of the thread 32 places on (another warp) and thread 0 sums all of them.
// count_down() is a release fetch_sub of the latch's counter and wait() returns after an acquire load
// that reads 0: the last of those read-modify-writes, so every count_down is in the release sequence
// it reads from and every thread's write happens before every read after wait(): race-free. Every
// thread that counts is in the block and counts down before it waits, so wait() cannot hang.
#include <cuda/latch>
#include <new>

#include "suite.cuh"

constexpr int N = 128;

__global__ void gather(const int* in, int* out, int* total) {
  using BlockLatch = cuda::latch<cuda::thread_scope_block>;
  __shared__ alignas(BlockLatch) unsigned char latch_storage[sizeof(BlockLatch)];
  __shared__ int slot[N];
  BlockLatch* written = reinterpret_cast<BlockLatch*>(latch_storage);
  if (threadIdx.x == 0) new (written) BlockLatch(blockDim.x);
  __syncthreads();
  const int t = threadIdx.x;
  slot[t] = in[blockIdx.x * N + t] + t;
  written->count_down();
  written->wait();
  out[blockIdx.x * N + t] = slot[(t + 32) % N];
  if (t == 0) {
    int sum = 0;
    for (int i = 0; i < N; ++i) sum += slot[i];
    atomicAdd(total, sum);
  }
}

int main() {
  int* in = zeroed<int>(2 * N);
  int* out = zeroed<int>(2 * N);
  int* total = zeroed<int>(1);
  gather<<<2, N>>>(in, out, total);
  return finish("latch_block_gather", fetch(total));  // 2 * (0 + 1 + ... + 127) = 16256
}
// EXPECT: no-race
