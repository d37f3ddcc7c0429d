// Two launches of one kernel in two streams, each waiting (relaxed, up to 10 s) until the other has
// started, so that they surely run at once, then both store to one word: a write-write race between
// the launches. Many blocks, so that the second launch's blocks start while the first's still do.
#include "suite.cuh"

__global__ void meet_then_store(int* started, int* word, int me) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    atomicExch(&started[me], 1);
    const unsigned long long start = gpu_time_ns();
    while (atomicAdd(&started[1 - me], 0) == 0 && gpu_time_ns() - start < 10'000'000'000ull) __nanosleep(1000);
    *word = me;  // @A
  }
}

int main() {
  int* started = zeroed<int>(2);
  int* word = zeroed<int>(1);
  cudaFuncAttributes attributes;
  CHECK(cudaFuncGetAttributes(&attributes, meet_then_store));
  CHECK(cudaDeviceSynchronize());
  cudaStream_t first, second;
  CHECK(cudaStreamCreateWithFlags(&first, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&second, cudaStreamNonBlocking));
  meet_then_store<<<64, 128, 0, first>>>(started, word, 0);
  meet_then_store<<<64, 128, 0, second>>>(started, word, 1);
  return finish("same_kernel_overlap_race", fetch(started) + fetch(started + 1));
}
// EXPECT: race inter-block global WAW A A
