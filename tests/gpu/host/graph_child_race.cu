// A graph whose child graph holds a kernel that writes the words a kernel of the parent writes, with no
// edge between the child graph node and that kernel: they may run concurrently and race. A kernel after
// both reads the words (ordered with both).
#include "suite.cuh"

__global__ void parent_store(int* x) { x[threadIdx.x] = 1; }  // @A
__global__ void child_store(int* x) { x[threadIdx.x] = 2; }   // @B
__global__ void count_ones(const int* x, int* ones) {
  if (x[threadIdx.x] == 1) atomicAdd(ones, 1);
}

int main() {
  int* x = zeroed<int>(32);
  int* ones = zeroed<int>(1);
  cudaGraph_t graph, child;
  CHECK(cudaGraphCreate(&graph, 0));
  CHECK(cudaGraphCreate(&child, 0));
  void* args[] = {&x};
  cudaKernelNodeParams params{};
  params.gridDim = dim3(1);
  params.blockDim = dim3(32);
  params.kernelParams = args;
  params.func = reinterpret_cast<void*>(child_store);
  cudaGraphNode_t child_kernel, parent_kernel, child_node, reader;
  CHECK(cudaGraphAddKernelNode(&child_kernel, child, nullptr, 0, &params));
  params.func = reinterpret_cast<void*>(parent_store);
  CHECK(cudaGraphAddKernelNode(&parent_kernel, graph, nullptr, 0, &params));
  CHECK(cudaGraphAddChildGraphNode(&child_node, graph, nullptr, 0, child));
  void* reader_args[] = {&x, &ones};
  params.func = reinterpret_cast<void*>(count_ones);
  params.kernelParams = reader_args;
  cudaGraphNode_t both[] = {parent_kernel, child_node};
  CHECK(cudaGraphAddKernelNode(&reader, graph, both, 2, &params));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphDestroy(child));
  CHECK(cudaGraphDestroy(graph));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  const int counted = fetch(ones);
  return finish("graph_child_race", counted == 0 || counted == 32);
}
// EXPECT: race inter-block global WAW A B
