#pragma once
// What an instantiated CUDA graph runs, read from its source graph when it is instantiated (the
// application may destroy or change the source graph right after): the nodes in a topological order,
// child graphs flattened into their parent, each with the nodes it waits for and its own copy of its
// parameters. shim/graph_replay.h runs a snapshot node by node.
#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include "shim/launch_observer.h"

namespace barracuda::shim {

// A kernel node's launch, with a copy of its arguments (the driver's copy goes with the source graph).
struct KernelNode {
  CUfunction function;  // or a CUkernel, which the launch entry points accept in its place
  Dim3 grid;
  Dim3 block;
  unsigned shared_mem_bytes;
  // The node's attributes that change how it runs (clusters, cooperative launch, priority, ...).
  std::vector<CUlaunchAttribute> attributes;
  // The arguments as the kernel reads them: argument i at argument_offsets[i] of argument_bytes
  // (the node had kernelParams), or all of argument_bytes as one buffer (the node had `extra`).
  std::vector<unsigned char> argument_bytes;
  std::vector<std::size_t> argument_offsets;
  bool packed_arguments = false;
};
struct MemcpyNode {
  CUDA_MEMCPY3D copy;
};
struct MemsetNode {
  CUDA_MEMSET_NODE_PARAMS memset;
};
struct HostNode {
  CUDA_HOST_NODE_PARAMS call;
};
struct EventRecordNode {
  CUevent event;
};
struct EventWaitNode {
  CUevent event;
};
struct EmptyNode {};

using NodeWork = std::variant<EmptyNode, KernelNode, MemcpyNode, MemsetNode, HostNode, EventRecordNode, EventWaitNode>;

struct SnapshotNode {
  NodeWork work;
  std::vector<std::uint32_t> predecessors;  // positions of the nodes it waits for, all earlier
  bool last = false;                        // no node waits for it
};

struct GraphSnapshot {
  std::vector<SnapshotNode> nodes;  // a topological order
  // The source graph's node handles (of child graphs too) -> position, for updates of the instantiated
  // graph that name a node.
  std::unordered_map<CUgraphNode, std::uint32_t> position_of;
};

// Why a graph (or one of its nodes) cannot be replayed, in words for the logs.
struct Unsupported {
  std::string why;
};

std::variant<GraphSnapshot, Unsupported> snapshot_graph(CUgraph graph);

// A kernel node's new launch (cuGraphExecKernelNodeSetParams); the node's attributes stay.
std::variant<KernelNode, Unsupported> kernel_node_from(const CUDA_KERNEL_NODE_PARAMS& params,
                                                        std::vector<CUlaunchAttribute> attributes);

}  // namespace barracuda::shim
