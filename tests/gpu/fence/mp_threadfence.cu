// Legacy message passing across blocks: data, __threadfence, volatile flag store; volatile spin,
// __threadfence, data read. Fence + strong store releases, strong load + fence acquires: race-free.
#include "message_passing.cuh"

int main() {
  return run_message_passing("mp_threadfence", volatile_message_passing<Fence::device, Fence::device>);
}
// EXPECT: no-race
