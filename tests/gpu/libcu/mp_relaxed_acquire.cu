// Relaxed store of the flag and an acquire load: the producer side releases nothing.
#include "message_passing.cuh"

int main() {
  return run_message_passing(
      "mp_relaxed_acquire",
      atomic_ref_message_passing<cuda::thread_scope_device, cuda::memory_order_relaxed, cuda::memory_order_acquire>);
}
// EXPECT: race inter-block global RAW MP_DATA_WRITE MP_DATA_READ
