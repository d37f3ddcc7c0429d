// Message passing across blocks with a system-scope release/acquire flag: race-free.
#include "message_passing.cuh"

int main() {
  return run_message_passing(
      "mp_system_scope",
      atomic_ref_message_passing<cuda::thread_scope_system, cuda::memory_order_release, cuda::memory_order_acquire>);
}
// EXPECT: no-race
