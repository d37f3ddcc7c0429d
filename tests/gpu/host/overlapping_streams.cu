// Two different kernels in two streams, each busy for 50 ms without touching memory but to say when it
// ran: natively their GPU time overlaps (1), under a tool that runs launches one at a time it does not (0).
#include "suite.cuh"

__device__ void busy(unsigned long long* span) {
  const unsigned long long start = gpu_time_ns();
  while (gpu_time_ns() - start < 50'000'000ull) {
  }
  if (threadIdx.x == 0) {
    span[0] = start;
    span[1] = gpu_time_ns();
  }
}

__global__ void busy_first(unsigned long long* span) { busy(span); }
__global__ void busy_second(unsigned long long* span) { busy(span + 2); }

int main() {
  unsigned long long* span = zeroed<unsigned long long>(4);
  cudaStream_t a, b;
  CHECK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
  busy_first<<<1, 32, 0, a>>>(span);  // loads the module: the pair below is what is measured
  busy_second<<<1, 32, 0, b>>>(span);
  CHECK(cudaDeviceSynchronize());
  busy_first<<<1, 32, 0, a>>>(span);
  busy_second<<<1, 32, 0, b>>>(span);
  CHECK(cudaDeviceSynchronize());
  unsigned long long host[4];
  CHECK(cudaMemcpy(host, span, sizeof host, cudaMemcpyDeviceToHost));
  return finish("overlapping_streams", host[0] < host[3] && host[2] < host[1] ? 1 : 0);
}
// EXPECT: no-race
