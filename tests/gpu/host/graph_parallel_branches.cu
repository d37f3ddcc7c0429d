// A captured graph that forks into two parallel branches (second stream joined by events); both
// branches' kernels write the same buffer.
#include "suite.cuh"

__global__ void fill(int* x, int value) { x[threadIdx.x] = value; }  // @A

int main() {
  int* x = zeroed<int>(32);
  cudaStream_t main_stream, side;
  cudaEvent_t fork, join;
  CHECK(cudaStreamCreateWithFlags(&main_stream, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
  CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(main_stream, cudaStreamCaptureModeGlobal));
  CHECK(cudaEventRecord(fork, main_stream));
  CHECK(cudaStreamWaitEvent(side, fork, 0));
  fill<<<1, 32, 0, main_stream>>>(x, 1);
  fill<<<1, 32, 0, side>>>(x, 2);
  CHECK(cudaEventRecord(join, side));
  CHECK(cudaStreamWaitEvent(main_stream, join, 0));
  CHECK(cudaStreamEndCapture(main_stream, &graph));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphLaunch(exec, main_stream));
  CHECK(cudaStreamSynchronize(main_stream));
  return finish("graph_parallel_branches", fetch(x));
}
// EXPECT: race inter-block global WAW A A
