// Message passing with a relaxed flag: the flag accesses are strong (no race between them) but
// they do not order the plain data accesses.
#include "message_passing.cuh"

int main() {
  return run_message_passing(
      "mp_relaxed",
      atomic_ref_message_passing<cuda::thread_scope_device, cuda::memory_order_relaxed, cuda::memory_order_relaxed>);
}
// EXPECT: race inter-block global RAW MP_DATA_WRITE MP_DATA_READ
