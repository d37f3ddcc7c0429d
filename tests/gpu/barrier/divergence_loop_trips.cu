// A barrier inside a loop whose trip count differs per warp: warp 0 runs two iterations, warp 1
// one, so warp 0's second barrier has no partner.
#include "suite.cuh"

__global__ void uneven_loop(int* out) {
  int trips = threadIdx.x < 32 ? 2 : 1;
  int acc = 0;
  for (int i = 0; i < trips; ++i) {
    acc += i;
    __syncthreads();  // @A
  }
  out[threadIdx.x] = acc;
}

int main() {
  int* out = zeroed<int>(64);
  uneven_loop<<<1, 64>>>(out);
  return finish("divergence_loop_trips", fetch(out));
}
// EXPECT: barrier-divergence A
