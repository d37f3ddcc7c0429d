// Even lanes write their slot inside a branch; after the branch every lane reads its neighbour's
// slot with no __syncwarp: racy under independent scheduling, ordered by reconvergence in lockstep.
#include "suite.cuh"

__global__ void after_branch(int* out) {
  __shared__ int s[32];
  int lane = threadIdx.x;
  s[lane] = 0;
  __syncwarp();
  if (lane % 2 == 0) s[lane] = lane + 1;   // @A
  out[lane] = s[lane ^ 1];                 // @B
}

int main() {
  int* out = zeroed<int>(32);
  after_branch<<<1, 32>>>(out);
  return finish("reconverge_then_read", fetch(out + 1));
}
// EXPECT: race intra-warp shared RAW A B
// EXPECT-LOCKSTEP: no-race
