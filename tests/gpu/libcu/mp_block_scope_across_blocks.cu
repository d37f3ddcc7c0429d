// Release/acquire at block scope between two blocks: the scope does not cover both threads, so the
// flag accesses are not morally strong (a scoped race) and they order nothing (the data races too).
#include "message_passing.cuh"

__global__ void message_passing(int* data, int* flag, int* out) {
  if (threadIdx.x != 0) return;
  cuda::atomic_ref<int, cuda::thread_scope_block> ready(*flag);
  if (blockIdx.x == 0) {
    data[0] = 42;                                       // @A
    ready.store(1, cuda::memory_order_release);              // @C
  } else {
    // Bounded: a block-scope load may be served from this SM's L1 and never see the other SM's store.
    for (int spin = 0; spin < (1 << 20) && ready.load(cuda::memory_order_acquire) == 0; ++spin) {}  // @D
    out[0] = data[0];                                   // @B
  }
}

int main() { return run_message_passing("mp_block_scope_across_blocks", message_passing); }
// EXPECT: race scoped global RAW A B
// EXPECT: race scoped global RAW C D
