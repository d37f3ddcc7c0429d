// Only the producer fences: the consumer's data read may be satisfied before its flag read, so the
// data accesses are not ordered.
#include "message_passing.cuh"

int main() {
  return run_message_passing("mp_producer_fence_only", volatile_message_passing<Fence::device, Fence::none>);
}
// EXPECT: race inter-block global RAW MP_LEGACY_DATA_WRITE MP_LEGACY_DATA_READ
