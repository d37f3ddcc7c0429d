// Release store of the flag but a relaxed load on the consumer side: no acquire, so the data read
// is not ordered after the data write.
#include "message_passing.cuh"

int main() {
  return run_message_passing(
      "mp_release_relaxed",
      atomic_ref_message_passing<cuda::thread_scope_device, cuda::memory_order_release, cuda::memory_order_relaxed>);
}
// EXPECT: race inter-block global RAW MP_DATA_WRITE MP_DATA_READ
