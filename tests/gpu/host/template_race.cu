// A templated reduction kernel whose instantiation for 64 threads reads the upper half before the
// barrier: the race sits in template code.
#include "suite.cuh"

template <int THREADS>
__global__ void half_sum(const int* in, int* out) {
  __shared__ int s[THREADS];
  s[threadIdx.x] = in[threadIdx.x];                                      // @A
  if (threadIdx.x < THREADS / 2) s[threadIdx.x] += s[threadIdx.x + THREADS / 2];  // @B
  __syncthreads();
  if (threadIdx.x == 0) out[0] = s[0];
}

int main() {
  int* in = zeroed<int>(64);
  int* out = zeroed<int>(1);
  half_sum<64><<<1, 64>>>(in, out);
  return finish("template_race", fetch(out));
}
// EXPECT: race inter-warp shared RAW A B
