// One shared buffer reused across barrier intervals: written, read by neighbours, rewritten, read
// again, each phase separated by __syncthreads. Several blocks per SM reuse the device checker's
// slots and epochs: race-free with and without device shared checking (device_shared_check).
#include "suite.cuh"

constexpr int kThreads = 256;

__global__ void phases(const int* in, int* out) {
  __shared__ int buffer[kThreads];
  const int t = threadIdx.x;
  buffer[t] = in[blockIdx.x * kThreads + t];
  __syncthreads();
  const int left = buffer[(t + kThreads - 1) % kThreads];
  __syncthreads();
  buffer[t] = 2 * left;
  __syncthreads();
  out[blockIdx.x * kThreads + t] = buffer[(t + 3) % kThreads];
}

int main() {
  constexpr int kBlocks = 528;  // several rounds of blocks on every SM
  int* in = zeroed<int>(kBlocks * kThreads);
  int* out = zeroed<int>(kBlocks * kThreads);
  phases<<<kBlocks, kThreads>>>(in, out);
  return finish("device_check_buffer_reuse", fetch(out));
}
// EXPECT: no-race
