// Message passing across blocks: plain data published by a device-scope release store of a flag and
// read after an acquire load observes it: race-free.
#include "message_passing.cuh"

int main() {
  return run_message_passing(
      "mp_release_acquire",
      atomic_ref_message_passing<cuda::thread_scope_device, cuda::memory_order_release, cuda::memory_order_acquire>);
}
// EXPECT: no-race
