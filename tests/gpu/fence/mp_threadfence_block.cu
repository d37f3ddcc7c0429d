// Message passing across blocks fenced with __threadfence_block (membar.cta): block-scope fences
// order nothing between blocks: a scoped race on the data.
#include "message_passing.cuh"

int main() {
  return run_message_passing("mp_threadfence_block", volatile_message_passing<Fence::block, Fence::block>);
}
// EXPECT: race scoped global RAW MP_LEGACY_DATA_WRITE MP_LEGACY_DATA_READ
