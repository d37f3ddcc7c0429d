// Lanes leave a loop at different iterations; the lanes still looping keep writing their own slot
// and the exited ones wait at __syncwarp before reading: race-free.
#include "suite.cuh"

__global__ void countdown(const int* trips, int* out) {
  __shared__ int s[32];
  int lane = threadIdx.x;
  s[lane] = 0;
  for (int i = 0; i < 32; ++i) {
    if (i >= trips[lane]) break;
    s[lane] += i;
  }
  __syncwarp();
  out[lane] = s[(lane + 5) % 32];
}

int main() {
  int host[32];
  for (int i = 0; i < 32; ++i) host[i] = i;
  int* trips = zeroed<int>(32);
  CHECK(cudaMemcpy(trips, host, sizeof host, cudaMemcpyHostToDevice));
  int* out = zeroed<int>(32);
  countdown<<<1, 32>>>(trips, out);
  return finish("loop_break_partial_warp", fetch(out));
}
// EXPECT: no-race
