// An explicit graph: a memset node, then two kernel nodes on parallel branches after it writing the
// same words, then a memcpy node back to the host after both. The memset and the memcpy are ordered
// with both kernels; the kernels are not ordered with each other: they race.
#include "suite.cuh"

__global__ void store_ones(int* x) { x[threadIdx.x] = 1; }  // @A
__global__ void store_twos(int* x) { x[threadIdx.x] = 2; }  // @B

int main() {
  int* x = zeroed<int>(32);
  int host[32] = {};
  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));
  cudaMemsetParams memset_params{};
  memset_params.dst = x;
  memset_params.value = 7;
  memset_params.elementSize = sizeof(int);
  memset_params.width = 32;
  memset_params.height = 1;
  cudaGraphNode_t memset_node, ones, twos, copy;
  CHECK(cudaGraphAddMemsetNode(&memset_node, graph, nullptr, 0, &memset_params));
  void* args[] = {&x};
  cudaKernelNodeParams params{};
  params.gridDim = dim3(1);
  params.blockDim = dim3(32);
  params.kernelParams = args;
  params.func = reinterpret_cast<void*>(store_ones);
  CHECK(cudaGraphAddKernelNode(&ones, graph, &memset_node, 1, &params));
  params.func = reinterpret_cast<void*>(store_twos);
  CHECK(cudaGraphAddKernelNode(&twos, graph, &memset_node, 1, &params));
  cudaGraphNode_t both[] = {ones, twos};
  CHECK(cudaGraphAddMemcpyNode1D(&copy, graph, both, 2, host, x, sizeof host, cudaMemcpyDeviceToHost));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaStreamSynchronize(0));
  return finish("graph_explicit_branches_race", host[3] == 1 || host[3] == 2);
}
// EXPECT: race inter-block global WAW A B
