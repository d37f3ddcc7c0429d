// Message passing across blocks with seq_cst flag store and load at device scope: race-free.
#include "message_passing.cuh"

int main() {
  return run_message_passing(
      "mp_seq_cst",
      atomic_ref_message_passing<cuda::thread_scope_device, cuda::memory_order_seq_cst, cuda::memory_order_seq_cst>);
}
// EXPECT: no-race
