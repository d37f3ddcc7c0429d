// Per-thread default streams (--default-stream per-thread): two host threads launch kernels on their
// own default streams, which run concurrently, and both kernels write the same buffer.
#include <thread>
#include "suite.cuh"

__global__ void fill(int* x, int value) { x[threadIdx.x] = value; }  // @A

int main() {
  int* x = zeroed<int>(32);
  auto launch = [x](int value) {
    fill<<<1, 32>>>(x, value);
    CHECK(cudaStreamSynchronize(cudaStreamPerThread));
  };
  std::thread first(launch, 1), second(launch, 2);
  first.join();
  second.join();
  return finish("per_thread_default_stream", fetch(x));
}
// BUILD: --default-stream per-thread
// EXPECT: race inter-block global WAW A A
