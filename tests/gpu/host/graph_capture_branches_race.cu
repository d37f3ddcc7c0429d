// Stream capture from a blocking stream (cudaStreamCreate) forking into a second blocking stream: two
// different kernels on the parallel branches write the same words; a third kernel after the join
// reads them. The branches may run concurrently in the graph: the two writers race.
#include "suite.cuh"

__global__ void set_ones(int* x) { x[threadIdx.x] = 1; }  // @A
__global__ void set_twos(int* x) { x[threadIdx.x] = 2; }  // @B
__global__ void sum(const int* x, int* total) {
  if (threadIdx.x == 0) {
    int s = 0;
    for (int i = 0; i < 64; ++i) s += x[i];
    *total = s;
  }
}

int main() {
  int* x = zeroed<int>(64);
  int* total = zeroed<int>(1);
  cudaStream_t main_stream, side;
  cudaEvent_t fork, join;
  CHECK(cudaStreamCreate(&main_stream));
  CHECK(cudaStreamCreate(&side));
  CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(main_stream, cudaStreamCaptureModeGlobal));
  CHECK(cudaEventRecord(fork, main_stream));
  CHECK(cudaStreamWaitEvent(side, fork, 0));
  set_ones<<<1, 64, 0, main_stream>>>(x);
  set_twos<<<1, 64, 0, side>>>(x);
  CHECK(cudaEventRecord(join, side));
  CHECK(cudaStreamWaitEvent(main_stream, join, 0));
  sum<<<1, 32, 0, main_stream>>>(x, total);
  CHECK(cudaStreamEndCapture(main_stream, &graph));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaGraphLaunch(exec, main_stream));
  CHECK(cudaStreamSynchronize(main_stream));
  const int value = fetch(total);
  // Either branch may finish last: print what does not depend on it.
  return finish("graph_capture_branches_race", value >= 64 && value <= 128);
}
// EXPECT: race inter-block global WAW A B
