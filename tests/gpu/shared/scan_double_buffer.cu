// Hillis-Steele inclusive scan over 256 elements with two buffers and a barrier per step: race-free.
#include "suite.cuh"

__global__ void scan(const int* in, int* out) {
  __shared__ int buf[2][256];
  int t = threadIdx.x, src = 0;
  buf[0][t] = in[t];
  __syncthreads();
  for (int offset = 1; offset < 256; offset *= 2) {
    int v = buf[src][t];
    if (t >= offset) v += buf[src][t - offset];
    buf[1 - src][t] = v;
    src = 1 - src;
    __syncthreads();
  }
  out[t] = buf[src][t];
}

int main() {
  int* in = zeroed<int>(256);
  int* out = zeroed<int>(256);
  scan<<<1, 256>>>(in, out);
  return finish("scan_double_buffer", fetch(out + 255));
}
// EXPECT: no-race
