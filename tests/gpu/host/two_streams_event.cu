// Two streams, the second waits for an event recorded after the first kernel: race-free.
#include "suite.cuh"

__global__ void fill(int* x, int value) { x[threadIdx.x] = value; }

int main() {
  int* x = zeroed<int>(64);
  cudaStream_t a, b;
  cudaEvent_t done;
  CHECK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
  CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
  fill<<<1, 64, 0, a>>>(x, 1);
  CHECK(cudaEventRecord(done, a));
  CHECK(cudaStreamWaitEvent(b, done, 0));
  fill<<<1, 64, 0, b>>>(x, 2);
  return finish("two_streams_event", fetch(x));
}
// EXPECT: no-race
