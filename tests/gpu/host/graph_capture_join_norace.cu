// Stream capture forking into two branches that write disjoint halves of a buffer, then a kernel after
// the join that reads both halves, launched three times: the graph orders everything that conflicts.
// Race-free.
#include "suite.cuh"

__global__ void fill_half(int* x, int base, int value) { x[base + threadIdx.x] = value + threadIdx.x; }
__global__ void reduce(const int* x, int* total) {
  if (threadIdx.x == 0) {
    int s = 0;
    for (int i = 0; i < 64; ++i) s += x[i];
    *total += s;
  }
}

int main() {
  int* x = zeroed<int>(64);
  int* total = zeroed<int>(1);
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
  fill_half<<<1, 32, 0, main_stream>>>(x, 0, 1);
  fill_half<<<1, 32, 0, side>>>(x, 32, 100);
  CHECK(cudaEventRecord(join, side));
  CHECK(cudaStreamWaitEvent(main_stream, join, 0));
  reduce<<<1, 32, 0, main_stream>>>(x, total);
  CHECK(cudaStreamEndCapture(main_stream, &graph));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int i = 0; i < 3; ++i) CHECK(cudaGraphLaunch(exec, main_stream));
  CHECK(cudaStreamSynchronize(main_stream));
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  return finish("graph_capture_join_norace", fetch(total));  // 3 * (528 + 3696) = 12672
}
// EXPECT: no-race
