// Stream capture that forks into a second blocking stream and joins back (events with timing, as
// cudaEventCreate makes them): the two branches write disjoint halves, a third kernel after the join
// reads both. Race-free; natively fine, and it must run unchanged under the tool.
#include "suite.cuh"

__global__ void fill(int* x, int offset, int value) { x[offset + threadIdx.x] = value; }
__global__ void total(const int* x, int* out) {
  int sum = 0;
  for (int i = 0; i < 64; ++i) sum += x[i];
  *out = sum;
}

int main() {
  int* x = zeroed<int>(64);
  int* out = zeroed<int>(1);
  cudaStream_t s1, s2;
  cudaEvent_t fork, join;
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaStreamCreate(&s2));
  CHECK(cudaEventCreate(&fork));
  CHECK(cudaEventCreate(&join));
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  CHECK(cudaEventRecord(fork, s1));
  CHECK(cudaStreamWaitEvent(s2, fork, 0));
  fill<<<1, 32, 0, s1>>>(x, 0, 1);
  fill<<<1, 32, 0, s2>>>(x, 32, 2);
  CHECK(cudaEventRecord(join, s2));
  CHECK(cudaStreamWaitEvent(s1, join, 0));
  total<<<1, 1, 0, s1>>>(x, out);
  CHECK(cudaStreamEndCapture(s1, &graph));
  size_t nodes = 0;
  CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphLaunch(exec, s1));
  CHECK(cudaGraphLaunch(exec, s1));
  CHECK(cudaStreamSynchronize(s1));
  std::printf("nodes: %zu\n", nodes);
  return finish("capture_fork_join", fetch(out));
}
// EXPECT: no-race
