// A graph built node by node: memset node -> kernel node -> kernel node -> memcpy node back to the host,
// a child graph node after it, then one kernel node's arguments updated in the instantiated graph
// (cudaGraphExecKernelNodeSetParams) and the graph relaunched. Every node depends on the one before:
// race-free; output as natively.
#include "suite.cuh"

__global__ void add(int* x, int d) { x[threadIdx.x] += d; }
__global__ void square(int* x) { x[threadIdx.x] *= x[threadIdx.x]; }

int main() {
  int* x = zeroed<int>(32);
  int host[32] = {};
  cudaGraph_t graph, child;
  CHECK(cudaGraphCreate(&graph, 0));
  CHECK(cudaGraphCreate(&child, 0));

  cudaMemsetParams memset_params{};
  memset_params.dst = x;
  memset_params.value = 1;
  memset_params.elementSize = sizeof(int);
  memset_params.width = 32;
  memset_params.height = 1;
  cudaGraphNode_t memset_node, add_node, square_node, copy_node, child_node, child_add;
  CHECK(cudaGraphAddMemsetNode(&memset_node, graph, nullptr, 0, &memset_params));

  int d = 2;
  void* add_args[] = {&x, &d};
  cudaKernelNodeParams add_params{};
  add_params.func = reinterpret_cast<void*>(add);
  add_params.gridDim = dim3(1);
  add_params.blockDim = dim3(32);
  add_params.kernelParams = add_args;
  CHECK(cudaGraphAddKernelNode(&add_node, graph, &memset_node, 1, &add_params));

  void* square_args[] = {&x};
  cudaKernelNodeParams square_params{};
  square_params.func = reinterpret_cast<void*>(square);
  square_params.gridDim = dim3(1);
  square_params.blockDim = dim3(32);
  square_params.kernelParams = square_args;
  CHECK(cudaGraphAddKernelNode(&square_node, graph, &add_node, 1, &square_params));

  CHECK(cudaGraphAddMemcpyNode1D(&copy_node, graph, &square_node, 1, host, x, sizeof host,
                                 cudaMemcpyDeviceToHost));
  int one = 1;
  void* child_args[] = {&x, &one};
  cudaKernelNodeParams child_params = add_params;
  child_params.kernelParams = child_args;
  CHECK(cudaGraphAddKernelNode(&child_add, child, nullptr, 0, &child_params));
  CHECK(cudaGraphAddChildGraphNode(&child_node, graph, &copy_node, 1, child));

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  const int first = host[5];  // (1+2)^2 = 9
  int d2 = 5;
  void* add_args2[] = {&x, &d2};
  add_params.kernelParams = add_args2;
  CHECK(cudaGraphExecKernelNodeSetParams(exec, add_node, &add_params));
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  std::printf("first: %d second: %d\n", first, host[5]);  // (1+5)^2 = 36
  return finish("graph_explicit_nodes", fetch(x + 5));  // 36 + 1
}
// EXPECT: no-race
