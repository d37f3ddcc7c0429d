// A driver-API application with CUDA graphs (linked with -lcuda). Graph 1 is built out of order:
// a kernel node B (2x32 threads), a memset node, kernel node A (32 threads) after the memset, a memcpy
// node after A, and B made to wait for the memcpy. It is launched, kernel node A is changed to 48
// threads in the instantiated graph (cuGraphExecKernelNodeSetParams), and it is launched again; each
// time the app prints what the memcpy saw: the values A marked, then the memset's. Graph 2 (a kernel, a
// memory allocation and a memory free node) is launched once. Under barracuda graph 1 is replayed node
// by node and graph 2, with memory nodes, runs whole.
// Usage: graph_app MARKER.ptx
#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "driver_check.h"

namespace {

constexpr unsigned kValues = 64;
constexpr unsigned kMemsetValue = 0xffffffffu;

// "N marked, then V": how many leading values are marker + index, and the value after them.
void report(const char* what, CUdeviceptr buffer) {
  std::vector<unsigned> values(kValues);
  CHECK(cuCtxSynchronize());
  CHECK(cuMemcpyDtoH(values.data(), buffer, kValues * sizeof(unsigned)));
  unsigned marked = 0;
  while (marked < kValues && values[marked] == values[0] + marked) ++marked;
  if (marked < kValues) {
    std::printf("%s: %u marked, then 0x%x\n", what, marked, values[marked]);
  } else {
    std::printf("%s: %u marked\n", what, marked);
  }
}

CUDA_KERNEL_NODE_PARAMS marker_launch(CUfunction marker, unsigned blocks, unsigned threads, void** params) {
  CUDA_KERNEL_NODE_PARAMS launch{};
  launch.func = marker;
  launch.gridDimX = blocks;
  launch.gridDimY = launch.gridDimZ = 1;
  launch.blockDimX = threads;
  launch.blockDimY = launch.blockDimZ = 1;
  launch.kernelParams = params;
  return launch;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s MARKER.ptx\n", argv[0]);
    return 2;
  }
  std::string ptx = read_file(argv[1]);
  CHECK(cuInit(0));
  CUdevice device;
  CHECK(cuDeviceGet(&device, 0));
  CUcontext context;
  CHECK(cuDevicePrimaryCtxRetain(&context, device));
  CHECK(cuCtxSetCurrent(context));
  CUmodule module;
  CHECK(cuModuleLoadData(&module, ptx.c_str()));
  CUfunction marker;
  CHECK(cuModuleGetFunction(&marker, module, "marker"));
  CUdeviceptr out, seen;
  CHECK(cuMemAlloc(&out, kValues * sizeof(unsigned)));
  CHECK(cuMemAlloc(&seen, kValues * sizeof(unsigned)));
  void* params[] = {&out};

  CUgraph graph;
  CHECK(cuGraphCreate(&graph, 0));
  CUgraphNode b, set, a, copy;
  CUDA_KERNEL_NODE_PARAMS b_launch = marker_launch(marker, 2, 32, params);
  CHECK(cuGraphAddKernelNode(&b, graph, nullptr, 0, &b_launch));
  CUDA_MEMSET_NODE_PARAMS fill{};
  fill.dst = out;
  fill.value = kMemsetValue;
  fill.elementSize = sizeof(unsigned);
  fill.width = kValues;
  fill.height = 1;
  CHECK(cuGraphAddMemsetNode(&set, graph, nullptr, 0, &fill, context));
  CUDA_KERNEL_NODE_PARAMS a_launch = marker_launch(marker, 1, 32, params);
  CHECK(cuGraphAddKernelNode(&a, graph, &set, 1, &a_launch));
  CUDA_MEMCPY3D transfer{};
  transfer.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  transfer.srcDevice = out;
  transfer.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  transfer.dstDevice = seen;
  transfer.WidthInBytes = kValues * sizeof(unsigned);
  transfer.Height = 1;
  transfer.Depth = 1;
  CHECK(cuGraphAddMemcpyNode(&copy, graph, &a, 1, &transfer, context));
  CHECK(cuGraphAddDependencies(graph, &copy, &b, nullptr, 1));
  CUgraphExec exec;
  CHECK(cuGraphInstantiate(&exec, graph, 0));

  CHECK(cuGraphLaunch(exec, nullptr));
  report("first launch, memcpy saw", seen);
  a_launch.blockDimX = 48;
  CHECK(cuGraphExecKernelNodeSetParams(exec, a, &a_launch));
  CHECK(cuGraphLaunch(exec, nullptr));
  report("second launch, memcpy saw", seen);
  report("after the graph", out);
  CHECK(cuGraphExecDestroy(exec));
  CHECK(cuGraphDestroy(graph));  // only now: the update above names one of its nodes

  CUgraph with_memory;
  CHECK(cuGraphCreate(&with_memory, 0));
  CUgraphNode kernel, allocate, release;
  CUDA_KERNEL_NODE_PARAMS small = marker_launch(marker, 1, 8, params);
  CHECK(cuGraphAddKernelNode(&kernel, with_memory, nullptr, 0, &small));
  CUDA_MEM_ALLOC_NODE_PARAMS allocation{};
  allocation.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  allocation.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  allocation.poolProps.location.id = device;
  allocation.bytesize = 1 << 16;
  CHECK(cuGraphAddMemAllocNode(&allocate, with_memory, &kernel, 1, &allocation));
  CHECK(cuGraphAddMemFreeNode(&release, with_memory, &allocate, 1, allocation.dptr));
  CUgraphExec memory_exec;
  CHECK(cuGraphInstantiate(&memory_exec, with_memory, 0));
  CHECK(cuMemsetD32(out, 0, kValues));
  CHECK(cuGraphLaunch(memory_exec, nullptr));
  report("graph with memory nodes", out);
  CHECK(cuGraphExecDestroy(memory_exec));
  CHECK(cuGraphDestroy(with_memory));

  CHECK(cuMemFree(seen));
  CHECK(cuMemFree(out));
  CHECK(cuModuleUnload(module));
  CHECK(cuDevicePrimaryCtxRelease(device));
  return 0;
}
