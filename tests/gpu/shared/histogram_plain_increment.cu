// Shared histogram updated with a plain read-modify-write by lane 0 of two warps: lost updates.
// Two races: the two stores, and one warp's store against the other's load.
#include "suite.cuh"

__global__ void histogram(const int* in, int* out) {
  __shared__ int bins[4];
  if (threadIdx.x < 4) bins[threadIdx.x] = 0;
  __syncthreads();
  if (threadIdx.x % 32 == 0) {
    int bin = in[threadIdx.x] & 3;
    int old = bins[bin];   // @R
    bins[bin] = old + 1;   // @W
  }
  __syncthreads();
  if (threadIdx.x < 4) out[threadIdx.x] = bins[threadIdx.x];
}

int main() {
  int* in = zeroed<int>(64);
  int* out = zeroed<int>(4);
  histogram<<<1, 64>>>(in, out);
  return finish("histogram_plain_increment", fetch(out));
}
// EXPECT: race inter-warp shared WAW W W
// EXPECT: race inter-warp shared RAW W R
