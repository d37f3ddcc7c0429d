// A tree reduction in shared memory that skips the barrier after its first step: at stride 32,
// warp 0 reads the sums warp 1 wrote at stride 64 with nothing in between. Barrier-only, so
// device shared checking (device_shared_check) finds it on the GPU: the same inter-warp race as on the host.
#include "suite.cuh"

__global__ void tree_sum(const int* in, int* out) {
  __shared__ int s[128];
  const int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (int stride = 64; stride > 0; stride /= 2) {
    if (t < stride) s[t] += s[t + stride];  // @A
    if (stride != 64) __syncthreads();      // the barrier after the first step is missing
  }
  if (t == 0) out[0] = s[0];
}

int main() {
  int* in = zeroed<int>(128);
  int* out = zeroed<int>(1);
  tree_sum<<<1, 128>>>(in, out);
  return finish("device_check_reduction_missing_barrier", fetch(out));
}
// EXPECT: race inter-warp shared RAW A A
