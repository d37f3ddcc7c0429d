// One warp passes values to its neighbour lane through shared memory with no __syncwarp: under
// independent thread scheduling the lanes are not ordered, an intra-warp race. With
// device shared checking (device_shared_check) the GPU finds it (the kernel has no warp sync, so it qualifies).
#include "suite.cuh"

__global__ void rotate(const int* in, int* out) {
  __shared__ int s[32];
  const int t = threadIdx.x;
  s[t] = in[t];               // @A
  out[t] = s[(t + 1) % 32];   // @B
}

int main() {
  int* in = zeroed<int>(32);
  int* out = zeroed<int>(32);
  rotate<<<1, 32>>>(in, out);
  return finish("device_check_intra_warp", fetch(out));
}
// EXPECT: race intra-warp shared RAW A B
// EXPECT-LOCKSTEP: no-race
