// Lane 0 writes a shared word that all 32 lanes of its warp then read, with no __syncwarp: under
// independent thread scheduling the other 31 lanes race with lane 0 (an intra-warp race). The lanes
// reading together include the writer itself (apply_shared_read_lanes): each must take its own
// race with the write, the writer none.
#include "suite.cuh"

__global__ void write_then_broadcast(const int* in, int* out) {
  __shared__ int word[1];
  const int t = threadIdx.x;
  if (t == 0) word[0] = in[0] + 1;  // @A
  out[t] = word[0];                 // @B
}

int main() {
  int* in = zeroed<int>(1);
  int* out = zeroed<int>(32);
  write_then_broadcast<<<1, 32>>>(in, out);
  return finish("device_check_lane_writes_what_its_warp_reads", fetch(out));
}
// EXPECT: race intra-warp shared RAW A B
// EXPECT-LOCKSTEP: no-race
