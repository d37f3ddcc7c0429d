// Launches of one kernel in four streams at once, each scaling its own quarter of an array while
// every block first waits (relaxed) until all four launches have started: no two touch one word, so
// race-free. Under a tool that let a launch start only after the previous launch of the kernel ended,
// each would wait 10 s for the others.
#include "suite.cuh"

constexpr int kLaunches = 4;
constexpr int kBlocks = 32;
constexpr int kThreads = 128;

__global__ void scale_quarter(int* started, int* data, int me) {
  if (threadIdx.x == 0) {
    if (blockIdx.x == 0) atomicExch(&started[me], 1);
    const unsigned long long start = gpu_time_ns();
    for (int other = 0; other < kLaunches; ++other) {
      while (atomicAdd(&started[other], 0) == 0 && gpu_time_ns() - start < 10'000'000'000ull) __nanosleep(1000);
    }
  }
  __syncthreads();
  const int i = (me * kBlocks + blockIdx.x) * kThreads + threadIdx.x;
  data[i] = data[i] * 2 + me;
}

int main() {
  int* started = zeroed<int>(kLaunches);
  int* data = zeroed<int>(kLaunches * kBlocks * kThreads);
  cudaFuncAttributes attributes;
  CHECK(cudaFuncGetAttributes(&attributes, scale_quarter));
  CHECK(cudaDeviceSynchronize());
  cudaStream_t streams[kLaunches];
  for (int me = 0; me < kLaunches; ++me) {
    CHECK(cudaStreamCreateWithFlags(&streams[me], cudaStreamNonBlocking));
    scale_quarter<<<kBlocks, kThreads, 0, streams[me]>>>(started, data, me);
  }
  return finish("same_kernel_overlap_disjoint", fetch(data + kLaunches * kBlocks * kThreads - 1));
}
// EXPECT: no-race
