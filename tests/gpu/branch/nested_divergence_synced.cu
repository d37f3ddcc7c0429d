// Nested divergent branches write disjoint shared slots; after the branches reconverge a __syncwarp
// orders the reads of other lanes' slots: race-free.
#include "suite.cuh"

__global__ void nested(int* out) {
  __shared__ int s[32];
  int lane = threadIdx.x;
  if (lane < 16) {
    if (lane % 2) s[lane] = 1;
    else s[lane] = 2;
  } else {
    s[lane] = 3;
  }
  __syncwarp();
  out[lane] = s[31 - lane];
}

int main() {
  int* out = zeroed<int>(32);
  nested<<<1, 32>>>(out);
  return finish("nested_divergence_synced", fetch(out));
}
// EXPECT: no-race
