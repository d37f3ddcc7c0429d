// Legacy message passing across blocks with a volatile flag but no fences: the volatile flag
// accesses are strong, the plain data accesses are unordered.
#include "message_passing.cuh"

int main() {
  return run_message_passing("mp_no_fence", volatile_message_passing<Fence::none, Fence::none>);
}
// EXPECT: race inter-block global RAW MP_LEGACY_DATA_WRITE MP_LEGACY_DATA_READ
