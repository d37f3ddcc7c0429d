// The fake driver's graphs: kernel, memcpy (linear), 32-bit memset, empty and memory alloc/free nodes,
// edges, instantiation, kernel-node updates of an instantiated graph, and a launch that runs the nodes
// in a topological order on the host; plus the queries and stream calls the shim's replay makes.
#include <cuda.h>

#include <cstring>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "fake_driver/fake_kernel.h"

namespace {

struct FakeGraph;

struct FakeNode {
  CUgraphNodeType type;
  CUDA_KERNEL_NODE_PARAMS kernel{};
  CUdeviceptr kernel_argument = 0;  // the marker kernel's one parameter, owned by the node
  void* kernel_params[1] = {};
  CUDA_MEMCPY3D copy{};
  CUDA_MEMSET_NODE_PARAMS set{};

  void own_kernel_arguments() {
    kernel_argument = *static_cast<CUdeviceptr*>(kernel.kernelParams[0]);
    kernel_params[0] = &kernel_argument;
    kernel.kernelParams = kernel_params;
  }
};

struct FakeGraph {
  std::vector<std::unique_ptr<FakeNode>> nodes;
  std::vector<std::pair<FakeNode*, FakeNode*>> edges;
};

// An instantiated graph: its own copy of the nodes, in a topological order.
struct FakeExec {
  std::vector<FakeNode> nodes;
  std::map<CUgraphNode, std::size_t> position_of;
};

CUresult add_node(CUgraphNode* node, CUgraph graph, const CUgraphNode* dependencies, size_t count, FakeNode made) {
  auto* fake = reinterpret_cast<FakeGraph*>(graph);
  fake->nodes.push_back(std::make_unique<FakeNode>(made));
  FakeNode* added = fake->nodes.back().get();
  if (added->type == CU_GRAPH_NODE_TYPE_KERNEL) added->own_kernel_arguments();
  for (size_t i = 0; i < count; ++i) fake->edges.emplace_back(reinterpret_cast<FakeNode*>(dependencies[i]), added);
  *node = reinterpret_cast<CUgraphNode>(added);
  return CUDA_SUCCESS;
}

CUresult copy(const CUDA_MEMCPY3D* copy) {
  const void* from = copy->srcHost != nullptr ? copy->srcHost : reinterpret_cast<const void*>(copy->srcDevice);
  void* to = copy->dstHost != nullptr ? copy->dstHost : reinterpret_cast<void*>(copy->dstDevice);
  std::memcpy(to, from, copy->WidthInBytes * copy->Height * copy->Depth);
  return CUDA_SUCCESS;
}

CUresult set32(CUdeviceptr destination, unsigned value, size_t count) {
  auto* words = reinterpret_cast<unsigned*>(destination);
  for (size_t i = 0; i < count; ++i) words[i] = value;
  return CUDA_SUCCESS;
}

CUresult run_node(FakeNode& node) {
  switch (node.type) {
    case CU_GRAPH_NODE_TYPE_KERNEL: {
      const CUDA_KERNEL_NODE_PARAMS& k = node.kernel;
      return run_fake_kernel(k.func, k.gridDimX, k.gridDimY, k.gridDimZ, k.blockDimX, k.blockDimY, k.blockDimZ,
                             k.kernelParams);
    }
    case CU_GRAPH_NODE_TYPE_MEMCPY: return copy(&node.copy);
    case CU_GRAPH_NODE_TYPE_MEMSET: return set32(node.set.dst, node.set.value, node.set.width * node.set.height);
    default: return CUDA_SUCCESS;
  }
}

}  // namespace

extern "C" {

CUresult CUDAAPI cuGraphCreate(CUgraph* graph, unsigned int) {
  *graph = reinterpret_cast<CUgraph>(new FakeGraph());
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuGraphDestroy(CUgraph graph) {
  delete reinterpret_cast<FakeGraph*>(graph);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuGraphAddKernelNode_v2(CUgraphNode* node, CUgraph graph, const CUgraphNode* dependencies,
                                         size_t count, const CUDA_KERNEL_NODE_PARAMS* params) {
  FakeNode made{CU_GRAPH_NODE_TYPE_KERNEL};
  made.kernel = *params;
  return add_node(node, graph, dependencies, count, made);
}
CUresult CUDAAPI cuGraphAddMemcpyNode(CUgraphNode* node, CUgraph graph, const CUgraphNode* dependencies, size_t count,
                                      const CUDA_MEMCPY3D* params, CUcontext) {
  FakeNode made{CU_GRAPH_NODE_TYPE_MEMCPY};
  made.copy = *params;
  return add_node(node, graph, dependencies, count, made);
}
CUresult CUDAAPI cuGraphAddMemsetNode(CUgraphNode* node, CUgraph graph, const CUgraphNode* dependencies, size_t count,
                                      const CUDA_MEMSET_NODE_PARAMS* params, CUcontext) {
  if (params->elementSize != 4) return CUDA_ERROR_NOT_SUPPORTED;
  FakeNode made{CU_GRAPH_NODE_TYPE_MEMSET};
  made.set = *params;
  return add_node(node, graph, dependencies, count, made);
}
CUresult CUDAAPI cuGraphAddEmptyNode(CUgraphNode* node, CUgraph graph, const CUgraphNode* dependencies, size_t count) {
  return add_node(node, graph, dependencies, count, FakeNode{CU_GRAPH_NODE_TYPE_EMPTY});
}
CUresult CUDAAPI cuGraphAddMemAllocNode(CUgraphNode* node, CUgraph graph, const CUgraphNode* dependencies,
                                        size_t count, CUDA_MEM_ALLOC_NODE_PARAMS* params) {
  static unsigned char allocation[256];  // never touched: the fake's graphs do not run these nodes
  params->dptr = reinterpret_cast<CUdeviceptr>(allocation);
  return add_node(node, graph, dependencies, count, FakeNode{CU_GRAPH_NODE_TYPE_MEM_ALLOC});
}
CUresult CUDAAPI cuGraphAddMemFreeNode(CUgraphNode* node, CUgraph graph, const CUgraphNode* dependencies,
                                       size_t count, CUdeviceptr) {
  return add_node(node, graph, dependencies, count, FakeNode{CU_GRAPH_NODE_TYPE_MEM_FREE});
}
CUresult CUDAAPI cuGraphAddDependencies_v2(CUgraph graph, const CUgraphNode* from, const CUgraphNode* to,
                                           const CUgraphEdgeData*, size_t count) {
  auto* fake = reinterpret_cast<FakeGraph*>(graph);
  for (size_t i = 0; i < count; ++i) {
    fake->edges.emplace_back(reinterpret_cast<FakeNode*>(from[i]), reinterpret_cast<FakeNode*>(to[i]));
  }
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGraphGetNodes(CUgraph graph, CUgraphNode* nodes, size_t* count) {
  auto* fake = reinterpret_cast<FakeGraph*>(graph);
  if (nodes != nullptr) {
    for (size_t i = 0; i < fake->nodes.size() && i < *count; ++i) nodes[i] = reinterpret_cast<CUgraphNode>(fake->nodes[i].get());
  }
  *count = fake->nodes.size();
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuGraphGetEdges_v2(CUgraph graph, CUgraphNode* from, CUgraphNode* to, CUgraphEdgeData* data,
                                    size_t* count) {
  auto* fake = reinterpret_cast<FakeGraph*>(graph);
  if (from != nullptr) {
    for (size_t i = 0; i < fake->edges.size() && i < *count; ++i) {
      from[i] = reinterpret_cast<CUgraphNode>(fake->edges[i].first);
      to[i] = reinterpret_cast<CUgraphNode>(fake->edges[i].second);
      if (data != nullptr) data[i] = CUgraphEdgeData{};
    }
  }
  *count = fake->edges.size();
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuGraphNodeGetType(CUgraphNode node, CUgraphNodeType* type) {
  *type = reinterpret_cast<FakeNode*>(node)->type;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuGraphKernelNodeGetParams_v2(CUgraphNode node, CUDA_KERNEL_NODE_PARAMS* params) {
  *params = reinterpret_cast<FakeNode*>(node)->kernel;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuGraphKernelNodeGetAttribute(CUgraphNode, CUkernelNodeAttrID, CUkernelNodeAttrValue* value) {
  *value = CUkernelNodeAttrValue{};
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuGraphMemcpyNodeGetParams(CUgraphNode node, CUDA_MEMCPY3D* params) {
  *params = reinterpret_cast<FakeNode*>(node)->copy;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuGraphMemsetNodeGetParams(CUgraphNode node, CUDA_MEMSET_NODE_PARAMS* params) {
  *params = reinterpret_cast<FakeNode*>(node)->set;
  return CUDA_SUCCESS;
}
// Node kinds the fake never makes.
CUresult CUDAAPI cuGraphHostNodeGetParams(CUgraphNode, CUDA_HOST_NODE_PARAMS*) { return CUDA_ERROR_NOT_SUPPORTED; }
CUresult CUDAAPI cuGraphChildGraphNodeGetGraph(CUgraphNode, CUgraph*) { return CUDA_ERROR_NOT_SUPPORTED; }
CUresult CUDAAPI cuGraphEventRecordNodeGetEvent(CUgraphNode, CUevent*) { return CUDA_ERROR_NOT_SUPPORTED; }
CUresult CUDAAPI cuGraphEventWaitNodeGetEvent(CUgraphNode, CUevent*) { return CUDA_ERROR_NOT_SUPPORTED; }

// The marker kernel's one parameter, a pointer.
CUresult CUDAAPI cuFuncGetParamInfo(CUfunction, size_t index, size_t* offset, size_t* size) {
  if (index > 0) return CUDA_ERROR_INVALID_VALUE;
  *offset = 0;
  *size = sizeof(CUdeviceptr);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuKernelGetParamInfo(CUkernel kernel, size_t index, size_t* offset, size_t* size) {
  return cuFuncGetParamInfo(reinterpret_cast<CUfunction>(kernel), index, offset, size);
}

CUresult CUDAAPI cuGraphInstantiateWithFlags(CUgraphExec* exec, CUgraph graph, unsigned long long) {
  auto* fake = reinterpret_cast<FakeGraph*>(graph);
  auto* made = new FakeExec();
  made->nodes.reserve(fake->nodes.size());  // the nodes point into themselves
  std::map<FakeNode*, size_t> waiting;
  for (const auto& [from, to] : fake->edges) ++waiting[to];
  std::vector<FakeNode*> ready;
  for (const auto& node : fake->nodes) {
    if (waiting[node.get()] == 0) ready.push_back(node.get());
  }
  for (size_t next = 0; next < ready.size(); ++next) {
    made->position_of[reinterpret_cast<CUgraphNode>(ready[next])] = made->nodes.size();
    made->nodes.push_back(*ready[next]);
    made->nodes.back().kernel_params[0] = &made->nodes.back().kernel_argument;
    made->nodes.back().kernel.kernelParams = made->nodes.back().kernel_params;
    for (const auto& [from, to] : fake->edges) {
      if (from == ready[next] && --waiting[to] == 0) ready.push_back(to);
    }
  }
  *exec = reinterpret_cast<CUgraphExec>(made);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuGraphExecDestroy(CUgraphExec exec) {
  delete reinterpret_cast<FakeExec*>(exec);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuGraphExecKernelNodeSetParams_v2(CUgraphExec exec, CUgraphNode node,
                                                   const CUDA_KERNEL_NODE_PARAMS* params) {
  auto* fake = reinterpret_cast<FakeExec*>(exec);
  const auto position = fake->position_of.find(node);
  if (position == fake->position_of.end()) return CUDA_ERROR_INVALID_VALUE;
  FakeNode& changed = fake->nodes[position->second];
  changed.kernel = *params;
  changed.own_kernel_arguments();
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuGraphLaunch(CUgraphExec exec, CUstream) {
  for (FakeNode& node : reinterpret_cast<FakeExec*>(exec)->nodes) {
    if (CUresult result = run_node(node); result != CUDA_SUCCESS) return result;
  }
  return CUDA_SUCCESS;
}

// What the replay runs nodes with: everything completes before the call returns.
CUresult CUDAAPI cuStreamIsCapturing(CUstream, CUstreamCaptureStatus* status) {
  *status = CU_STREAM_CAPTURE_STATUS_NONE;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D* params, CUstream) { return copy(params); }
CUresult CUDAAPI cuMemsetD2D32Async(CUdeviceptr destination, size_t, unsigned int value, size_t width, size_t height,
                                    CUstream) {
  return set32(destination, value, width * height);
}
CUresult CUDAAPI cuMemsetD2D8Async(CUdeviceptr, size_t, unsigned char, size_t, size_t, CUstream) {
  return CUDA_ERROR_NOT_SUPPORTED;
}
CUresult CUDAAPI cuMemsetD2D16Async(CUdeviceptr, size_t, unsigned short, size_t, size_t, CUstream) {
  return CUDA_ERROR_NOT_SUPPORTED;
}
CUresult CUDAAPI cuLaunchHostFunc(CUstream, CUhostFn function, void* data) {
  function(data);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuEventRecord(CUevent, CUstream) { return CUDA_SUCCESS; }
CUresult CUDAAPI cuStreamWaitEvent(CUstream, CUevent, unsigned int) { return CUDA_SUCCESS; }

}  // extern "C"
