// Two kernels captured from a blocking stream (cudaStreamCreate), the graph instantiated once and
// launched three times, each launch ordered after the previous one by the stream: race-free, and the
// app's result must be the same as natively (a graph launch once crashed inside cuGraphLaunch).
#include "suite.cuh"

__global__ void add_one(int* x) { x[threadIdx.x] += 1; }
__global__ void double_it(int* x) { x[threadIdx.x] *= 2; }

int main() {
  int* x = zeroed<int>(64);
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  add_one<<<1, 64, 0, s>>>(x);
  double_it<<<1, 64, 0, s>>>(x);
  CHECK(cudaStreamEndCapture(s, &graph));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int i = 0; i < 3; ++i) CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  return finish("graph_relaunch_blocking", fetch(x));  // ((0+1)*2+1)*2+1)*2 = 14
}
// EXPECT: no-race
