// An explicit graph with two kernel nodes and no edge between them, writing disjoint ranges: race-free
// on the first launch. cudaGraphExecKernelNodeSetParams then moves the second node's range onto the
// first's and the graph is launched again: the two nodes may run concurrently and now write the same
// words. Only a check of the updated launch sees the race.
#include "suite.cuh"

__global__ void fill(int* x, int base, int value) { x[base + threadIdx.x] = value; }  // @A

int main() {
  int* x = zeroed<int>(64);
  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));
  int first_base = 0, second_base = 32, first_value = 1, second_value = 2;
  void* first_args[] = {&x, &first_base, &first_value};
  void* second_args[] = {&x, &second_base, &second_value};
  cudaKernelNodeParams params{};
  params.func = reinterpret_cast<void*>(fill);
  params.gridDim = dim3(1);
  params.blockDim = dim3(32);
  params.kernelParams = first_args;
  cudaGraphNode_t first, second;
  CHECK(cudaGraphAddKernelNode(&first, graph, nullptr, 0, &params));
  params.kernelParams = second_args;
  CHECK(cudaGraphAddKernelNode(&second, graph, nullptr, 0, &params));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  const int before = fetch(x + 40);  // 2
  int moved_base = 0;
  void* moved_args[] = {&x, &moved_base, &second_value};
  params.kernelParams = moved_args;
  CHECK(cudaGraphExecKernelNodeSetParams(exec, second, &params));
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  const int written = fetch(x + 5);  // 1 or 2, whichever node ran last
  return finish("graph_set_params_race", before * 10 + (written == 1 || written == 2));
}
// EXPECT: race inter-block global WAW A A
