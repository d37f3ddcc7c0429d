// __reduce_add_sync (sm_80+) and __ballot_sync: register-only warp collectives, one store: race-free.
#include "suite.cuh"

__global__ void stats(const unsigned* in, unsigned* out) {
  unsigned v = in[threadIdx.x];
  unsigned sum = __reduce_add_sync(0xffffffffu, v);
  unsigned odd = __ballot_sync(0xffffffffu, v & 1);
  if (threadIdx.x == 0) { out[0] = sum; out[1] = odd; }
}

int main() {
  unsigned* in = zeroed<unsigned>(32);
  unsigned* out = zeroed<unsigned>(2);
  stats<<<1, 32>>>(in, out);
  return finish("reduce_builtin", fetch(out));
}
// EXPECT: no-race
