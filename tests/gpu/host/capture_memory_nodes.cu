// Stream capture with graph memory nodes (cudaMallocAsync / cudaFreeAsync inside the capture) and a
// fork/join across two streams: each branch fills its own scratch buffer, the join copies both into the
// result. Race-free; natively fine, and it must run unchanged under the tool.
#include "suite.cuh"

__global__ void fill(int* x, int value) { x[threadIdx.x] = value + threadIdx.x; }
__global__ void combine(const int* a, const int* b, int* out) { out[threadIdx.x] = a[threadIdx.x] + b[threadIdx.x]; }

int main() {
  int* out = zeroed<int>(32);
  cudaStream_t s1, s2;
  cudaEvent_t fork, join;
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  CHECK(cudaEventCreate(&fork));
  CHECK(cudaEventCreate(&join));
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  int *a = nullptr, *b = nullptr;
  CHECK(cudaMallocAsync(&a, 32 * sizeof(int), s1));
  CHECK(cudaEventRecord(fork, s1));
  CHECK(cudaStreamWaitEvent(s2, fork, 0));
  CHECK(cudaMallocAsync(&b, 32 * sizeof(int), s2));
  fill<<<1, 32, 0, s1>>>(a, 100);
  fill<<<1, 32, 0, s2>>>(b, 1000);
  CHECK(cudaEventRecord(join, s2));
  CHECK(cudaStreamWaitEvent(s1, join, 0));
  combine<<<1, 32, 0, s1>>>(a, b, out);
  CHECK(cudaFreeAsync(a, s1));
  CHECK(cudaFreeAsync(b, s1));
  CHECK(cudaStreamEndCapture(s1, &graph));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int i = 0; i < 3; ++i) CHECK(cudaGraphLaunch(exec, s1));
  CHECK(cudaStreamSynchronize(s1));
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  return finish("capture_memory_nodes", fetch(out + 31));
}
// EXPECT: no-race
