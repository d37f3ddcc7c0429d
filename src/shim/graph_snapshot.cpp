#include "shim/graph_snapshot.h"

#include <cudaTypedefs.h>

#include <algorithm>
#include <cstring>
#include <string_view>

#include "shim/real_driver.h"

namespace barracuda::shim {
namespace {

// Thrown while reading a graph, caught at the functions of the header.
struct NotReplayable {
  std::string why;
};

template <typename Function>
Function driver_function(const char* name) {
  auto* found = reinterpret_cast<Function>(libcuda_symbol(name));
  if (found == nullptr) throw NotReplayable{std::string("libcuda has no ") + name};
  return found;
}

void check(CUresult result, std::string_view call) {
  if (result != CUDA_SUCCESS) {
    throw NotReplayable{std::string(call) + " failed (CUresult " + std::to_string(static_cast<int>(result)) + ")"};
  }
}

// The graph readers, by their CUDA 13 exported names (cuGraphGetEdges_v2 has the edge data).
struct GraphReader {
  PFN_cuGraphGetNodes_v10000 get_nodes = driver_function<PFN_cuGraphGetNodes_v10000>("cuGraphGetNodes");
  PFN_cuGraphGetEdges_v12030 get_edges = driver_function<PFN_cuGraphGetEdges_v12030>("cuGraphGetEdges_v2");
  PFN_cuGraphNodeGetType_v10000 node_type = driver_function<PFN_cuGraphNodeGetType_v10000>("cuGraphNodeGetType");
  PFN_cuGraphKernelNodeGetParams_v12000 kernel_params =
      driver_function<PFN_cuGraphKernelNodeGetParams_v12000>("cuGraphKernelNodeGetParams_v2");
  PFN_cuGraphKernelNodeGetAttribute_v11000 kernel_attribute =
      driver_function<PFN_cuGraphKernelNodeGetAttribute_v11000>("cuGraphKernelNodeGetAttribute");
  PFN_cuGraphMemcpyNodeGetParams_v10000 memcpy_params =
      driver_function<PFN_cuGraphMemcpyNodeGetParams_v10000>("cuGraphMemcpyNodeGetParams");
  PFN_cuGraphMemsetNodeGetParams_v10000 memset_params =
      driver_function<PFN_cuGraphMemsetNodeGetParams_v10000>("cuGraphMemsetNodeGetParams");
  PFN_cuGraphHostNodeGetParams_v10000 host_params =
      driver_function<PFN_cuGraphHostNodeGetParams_v10000>("cuGraphHostNodeGetParams");
  PFN_cuGraphChildGraphNodeGetGraph_v10000 child_graph =
      driver_function<PFN_cuGraphChildGraphNodeGetGraph_v10000>("cuGraphChildGraphNodeGetGraph");
  PFN_cuGraphEventRecordNodeGetEvent_v11010 recorded_event =
      driver_function<PFN_cuGraphEventRecordNodeGetEvent_v11010>("cuGraphEventRecordNodeGetEvent");
  PFN_cuGraphEventWaitNodeGetEvent_v11010 awaited_event =
      driver_function<PFN_cuGraphEventWaitNodeGetEvent_v11010>("cuGraphEventWaitNodeGetEvent");
};

struct ParamReader {
  PFN_cuFuncGetParamInfo_v12040 function_param = driver_function<PFN_cuFuncGetParamInfo_v12040>("cuFuncGetParamInfo");
  PFN_cuKernelGetParamInfo_v12040 kernel_param =
      driver_function<PFN_cuKernelGetParamInfo_v12040>("cuKernelGetParamInfo");
};

// Resolved once; a driver that lacks one of them replays no graph.
template <typename Reader>
const Reader& reader() {
  static const auto resolved = []() -> std::variant<Reader, NotReplayable> {
    try {
      return Reader{};
    } catch (const NotReplayable& missing) {
      return missing;
    }
  }();
  if (const auto* missing = std::get_if<NotReplayable>(&resolved)) throw *missing;
  return std::get<Reader>(resolved);
}

struct ParamSlot {
  std::size_t offset, size;
};

// Each argument's offset and size: cuFuncGetParamInfo answers CUDA_ERROR_INVALID_VALUE past the last.
// A node may name its kernel by a CUkernel (in `kern`, or in `func`, which launches accept too).
std::vector<ParamSlot> parameter_layout(CUfunction function, CUkernel kernel) {
  constexpr std::size_t kMaxParameters = 4096;
  const ParamReader& params = reader<ParamReader>();
  std::vector<ParamSlot> slots;
  bool as_kernel = function == nullptr;
  for (std::size_t index = 0; index < kMaxParameters; ++index) {
    ParamSlot slot{};
    CUresult result = as_kernel ? params.kernel_param(kernel, index, &slot.offset, &slot.size)
                                : params.function_param(function, index, &slot.offset, &slot.size);
    if (result != CUDA_SUCCESS && result != CUDA_ERROR_INVALID_VALUE && index == 0 && !as_kernel) {
      as_kernel = true;
      kernel = reinterpret_cast<CUkernel>(function);
      result = params.kernel_param(kernel, index, &slot.offset, &slot.size);
    }
    if (result == CUDA_ERROR_INVALID_VALUE) return slots;
    check(result, as_kernel ? "cuKernelGetParamInfo" : "cuFuncGetParamInfo");
    slots.push_back(slot);
  }
  throw NotReplayable{"a kernel node has more than 4096 parameters"};
}

// The packed argument buffer of an `extra` list (CU_LAUNCH_PARAM_BUFFER_POINTER / _SIZE).
std::vector<unsigned char> packed_buffer(void** extra) {
  const void* buffer = nullptr;
  const std::size_t* size = nullptr;
  for (void** option = extra; *option != CU_LAUNCH_PARAM_END; option += 2) {
    if (*option == CU_LAUNCH_PARAM_BUFFER_POINTER) {
      buffer = option[1];
    } else if (*option == CU_LAUNCH_PARAM_BUFFER_SIZE) {
      size = static_cast<const std::size_t*>(option[1]);
    } else {
      throw NotReplayable{"a kernel node's extra launch options are not a parameter buffer"};
    }
  }
  if (buffer == nullptr || size == nullptr) throw NotReplayable{"a kernel node's parameter buffer has no size"};
  const auto* bytes = static_cast<const unsigned char*>(buffer);
  return {bytes, bytes + *size};
}

KernelNode read_kernel_launch(const CUDA_KERNEL_NODE_PARAMS& params, std::vector<CUlaunchAttribute> attributes) {
  KernelNode node{params.func != nullptr ? params.func : reinterpret_cast<CUfunction>(params.kern),
                  {params.gridDimX, params.gridDimY, params.gridDimZ},
                  {params.blockDimX, params.blockDimY, params.blockDimZ},
                  params.sharedMemBytes,
                  std::move(attributes),
                  {},
                  {},
                  false};
  if (node.function == nullptr) throw NotReplayable{"a kernel node has no kernel"};
  if (params.kernelParams != nullptr) {
    for (const ParamSlot& slot : parameter_layout(params.func, params.kern)) {
      if (node.argument_bytes.size() < slot.offset + slot.size) node.argument_bytes.resize(slot.offset + slot.size);
      std::memcpy(node.argument_bytes.data() + slot.offset, params.kernelParams[node.argument_offsets.size()], slot.size);
      node.argument_offsets.push_back(slot.offset);
    }
  } else if (params.extra != nullptr) {
    node.argument_bytes = packed_buffer(params.extra);
    node.packed_arguments = true;
  }
  return node;
}

// Attributes a kernel node may carry that change how it runs; a zero value is the attribute's default.
// Clusters and cooperative launches change what the kernel may do: a node whose setting cannot be read
// is not replayed. The others are scheduling hints.
struct AttributeRule {
  CUlaunchAttributeID id;
  bool must_read;
};
constexpr AttributeRule kKernelNodeAttributes[] = {
    {CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, true},
    {CU_LAUNCH_ATTRIBUTE_COOPERATIVE, true},
    {CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE, false},
    {CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE, false},
    {CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION, false},
    {CU_LAUNCH_ATTRIBUTE_PRIORITY, false},
    {CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP, false},
    {CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN, false},
    {CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW, false},
};

std::vector<CUlaunchAttribute> kernel_node_attributes(CUgraphNode node) {
  const GraphReader& graphs = reader<GraphReader>();
  std::vector<CUlaunchAttribute> set;
  for (const AttributeRule& rule : kKernelNodeAttributes) {
    CUlaunchAttributeValue value{};
    const CUresult result = graphs.kernel_attribute(node, rule.id, &value);
    if (result != CUDA_SUCCESS) {
      if (rule.must_read) check(result, "cuGraphKernelNodeGetAttribute");
      continue;
    }
    const CUlaunchAttributeValue unset{};
    if (std::memcmp(&value, &unset, sizeof value) == 0) continue;
    if (rule.id == CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE) {
      throw NotReplayable{"a kernel node is updatable from the device"};
    }
    CUlaunchAttribute attribute{};
    attribute.id = rule.id;
    attribute.value = value;
    set.push_back(attribute);
  }
  return set;
}

std::string_view node_type_name(CUgraphNodeType type) {
  switch (type) {
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL: return "external semaphore signal";
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT: return "external semaphore wait";
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC: return "memory allocation";
    case CU_GRAPH_NODE_TYPE_MEM_FREE: return "memory free";
    case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP: return "batch memory operation";
    case CU_GRAPH_NODE_TYPE_CONDITIONAL: return "conditional";
    default: return "unknown";
  }
}

// Flattens a graph and its child graphs into one DAG whose insertion order is topological.
class Flattener {
 public:
  explicit Flattener(GraphSnapshot& snapshot) : snapshot_(snapshot), graphs_(reader<GraphReader>()) {}

  // Adds `graph`'s nodes, its first nodes after `entry` (positions); returns the positions its last
  // nodes end at (`entry` itself for an empty graph).
  std::vector<std::uint32_t> add(CUgraph graph, const std::vector<std::uint32_t>& entry, int depth) {
    constexpr int kMaxDepth = 64;
    if (depth > kMaxDepth) throw NotReplayable{"child graphs nest more than 64 deep"};
    const std::vector<CUgraphNode> nodes = nodes_of(graph);
    const std::vector<std::pair<std::size_t, std::size_t>> edges = edges_of(graph, nodes);
    std::vector<std::vector<std::size_t>> predecessors(nodes.size()), successors(nodes.size());
    for (const auto& [from, to] : edges) {
      predecessors[to].push_back(from);
      successors[from].push_back(to);
    }
    // Kahn's algorithm, in the graph's node order where it leaves a choice.
    std::vector<std::size_t> waiting(nodes.size());
    std::vector<std::size_t> ready;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      waiting[i] = predecessors[i].size();
      if (waiting[i] == 0) ready.push_back(i);
    }
    std::vector<std::vector<std::uint32_t>> ends_of(nodes.size());
    std::vector<std::uint32_t> graph_ends;
    for (std::size_t next = 0; next < ready.size(); ++next) {
      const std::size_t i = ready[next];
      std::vector<std::uint32_t> after;
      for (std::size_t predecessor : predecessors[i]) {
        after.insert(after.end(), ends_of[predecessor].begin(), ends_of[predecessor].end());
      }
      if (predecessors[i].empty()) after = entry;
      // (Not std::ranges: clang 14 with libstdc++ 12, the sanitizer build's, rejects ranges::unique.)
      std::sort(after.begin(), after.end());
      after.erase(std::unique(after.begin(), after.end()), after.end());
      ends_of[i] = add_node(nodes[i], std::move(after), depth);
      if (successors[i].empty()) graph_ends.insert(graph_ends.end(), ends_of[i].begin(), ends_of[i].end());
      for (std::size_t successor : successors[i]) {
        if (--waiting[successor] == 0) ready.push_back(successor);
      }
    }
    if (ready.size() != nodes.size()) throw NotReplayable{"the graph has a cycle"};
    if (nodes.empty()) return entry;
    return graph_ends;
  }

 private:
  std::vector<CUgraphNode> nodes_of(CUgraph graph) const {
    std::size_t count = 0;
    check(graphs_.get_nodes(graph, nullptr, &count), "cuGraphGetNodes");
    std::vector<CUgraphNode> nodes(count);
    check(graphs_.get_nodes(graph, nodes.data(), &count), "cuGraphGetNodes");
    nodes.resize(count);
    return nodes;
  }

  // Edges as positions in `nodes`. Only full dependencies are modelled: a programmatic edge lets the
  // kernels overlap, which a replay in order would hide.
  std::vector<std::pair<std::size_t, std::size_t>> edges_of(CUgraph graph, const std::vector<CUgraphNode>& nodes) const {
    std::size_t count = 0;
    check(graphs_.get_edges(graph, nullptr, nullptr, nullptr, &count), "cuGraphGetEdges_v2");
    std::vector<CUgraphNode> from(count), to(count);
    std::vector<CUgraphEdgeData> data(count);
    check(graphs_.get_edges(graph, from.data(), to.data(), data.data(), &count), "cuGraphGetEdges_v2");
    std::unordered_map<CUgraphNode, std::size_t> index;
    for (std::size_t i = 0; i < nodes.size(); ++i) index.emplace(nodes[i], i);
    std::vector<std::pair<std::size_t, std::size_t>> edges;
    for (std::size_t i = 0; i < count; ++i) {
      if (data[i].type != CU_GRAPH_DEPENDENCY_TYPE_DEFAULT || data[i].from_port != 0 || data[i].to_port != 0) {
        throw NotReplayable{"the graph has a programmatic dependency (programmatic dependent launch)"};
      }
      const auto source = index.find(from[i]);
      const auto target = index.find(to[i]);
      if (source == index.end() || target == index.end()) throw NotReplayable{"an edge names a node not in its graph"};
      edges.emplace_back(source->second, target->second);
    }
    return edges;
  }

  // Returns the positions the node's work ends at.
  std::vector<std::uint32_t> add_node(CUgraphNode node, std::vector<std::uint32_t> after, int depth) {
    CUgraphNodeType type{};
    check(graphs_.node_type(node, &type), "cuGraphNodeGetType");
    NodeWork work;
    switch (type) {
      case CU_GRAPH_NODE_TYPE_KERNEL: {
        CUDA_KERNEL_NODE_PARAMS params{};
        check(graphs_.kernel_params(node, &params), "cuGraphKernelNodeGetParams_v2");
        work = read_kernel_launch(params, kernel_node_attributes(node));
        break;
      }
      case CU_GRAPH_NODE_TYPE_MEMCPY: {
        MemcpyNode copy{};
        check(graphs_.memcpy_params(node, &copy.copy), "cuGraphMemcpyNodeGetParams");
        work = copy;
        break;
      }
      case CU_GRAPH_NODE_TYPE_MEMSET: {
        MemsetNode set{};
        check(graphs_.memset_params(node, &set.memset), "cuGraphMemsetNodeGetParams");
        work = set;
        break;
      }
      case CU_GRAPH_NODE_TYPE_HOST: {
        HostNode host{};
        check(graphs_.host_params(node, &host.call), "cuGraphHostNodeGetParams");
        work = host;
        break;
      }
      case CU_GRAPH_NODE_TYPE_EVENT_RECORD: {
        EventRecordNode record{};
        check(graphs_.recorded_event(node, &record.event), "cuGraphEventRecordNodeGetEvent");
        work = record;
        break;
      }
      case CU_GRAPH_NODE_TYPE_WAIT_EVENT: {
        EventWaitNode wait{};
        check(graphs_.awaited_event(node, &wait.event), "cuGraphEventWaitNodeGetEvent");
        work = wait;
        break;
      }
      case CU_GRAPH_NODE_TYPE_EMPTY:
        break;
      case CU_GRAPH_NODE_TYPE_GRAPH: {
        CUgraph child = nullptr;
        check(graphs_.child_graph(node, &child), "cuGraphChildGraphNodeGetGraph");
        return add(child, after, depth + 1);
      }
      default:
        throw NotReplayable{"the graph has a " + std::string(node_type_name(type)) + " node"};
    }
    const auto position = static_cast<std::uint32_t>(snapshot_.nodes.size());
    for (std::uint32_t predecessor : after) snapshot_.nodes[predecessor].last = false;
    snapshot_.nodes.push_back({std::move(work), std::move(after), true});
    snapshot_.position_of[node] = position;
    return {position};
  }

  GraphSnapshot& snapshot_;
  const GraphReader& graphs_;
};

}  // namespace

std::variant<GraphSnapshot, Unsupported> snapshot_graph(CUgraph graph) {
  try {
    GraphSnapshot snapshot;
    Flattener(snapshot).add(graph, {}, 0);
    return snapshot;
  } catch (const NotReplayable& reason) {
    return Unsupported{reason.why};
  }
}

std::variant<KernelNode, Unsupported> kernel_node_from(const CUDA_KERNEL_NODE_PARAMS& params,
                                                        std::vector<CUlaunchAttribute> attributes) {
  try {
    return read_kernel_launch(params, std::move(attributes));
  } catch (const NotReplayable& reason) {
    return Unsupported{reason.why};
  }
}

}  // namespace barracuda::shim
