// A CUDA graph captured from a stream: producer then consumer kernel, launched twice: race-free.
#include "suite.cuh"

__global__ void produce(int* x) { x[threadIdx.x] = threadIdx.x + 1; }
__global__ void consume(const int* x, int* out) { out[threadIdx.x] = x[63 - threadIdx.x]; }

int main() {
  int* x = zeroed<int>(64);
  int* out = zeroed<int>(64);
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  produce<<<1, 64, 0, s>>>(x);
  consume<<<1, 64, 0, s>>>(x, out);
  CHECK(cudaStreamEndCapture(s, &graph));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  return finish("graph_dependent", fetch(out));
}
// EXPECT: no-race
