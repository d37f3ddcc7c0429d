// Message passing across blocks fenced with __threadfence_system (membar.sys): race-free.
#include "message_passing.cuh"

int main() {
  return run_message_passing("mp_threadfence_system", volatile_message_passing<Fence::system, Fence::system>);
}
// EXPECT: no-race
