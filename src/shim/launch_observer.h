#pragma once
// Notifications around every kernel launch, for the runtime that drains the GPU's event queues.
#include <cuda.h>

#include <string_view>

#include "barracuda/dim3.h"
#include "shim/graph_node_ref.h"
#include "shim/module_image.h"

namespace barracuda::shim {


// One launch call of the application as the shim intercepted it (engine::LaunchInfo is what the
// engine is told of the launch it checks).
struct LaunchCall {
  HookedSymbol entry;  // cuLaunchKernel, cuLaunchKernelEx, ... and whether it was the "_ptsz" variant
  CUfunction function;  // as passed by the application (may be a CUkernel, which the driver accepts)
  std::string_view kernel_name;  // mangled; empty when the driver could not name the function
  ModuleId module;
  Dim3 grid;
  Dim3 block;
  unsigned shared_mem_bytes;  // dynamic shared memory
  CUstream stream;
  // A graph launch the shim could not replay node by node (the driver runs the whole graph): its kernel
  // nodes run unseen; function, kernel_name, module, grid and block are empty.
  bool graph = false;
  // With `graph`, why it was not replayed; given once per instantiated graph (empty on later launches).
  std::string_view graph_not_replayed;
  // A kernel node of a replayed graph launch (entry is cuGraphLaunch): ordered with the graph's other
  // nodes by the graph's edges (SyncKind::kGraphNode*), not by `stream`, which only runs it.
  GraphNodeRef graph_node;
  // The launch's kernelParams (one pointer per kernel parameter, to the application's copy of its
  // value, valid during the observers' calls), or null (arguments packed in `extra`, graph launches).
  void* const* kernel_params = nullptr;
};

class LaunchObserver {
 public:
  virtual ~LaunchObserver() = default;
  virtual void before_launch(const LaunchCall& launch) = 0;
  // Called once the launch call returned (the kernel is queued, not necessarily finished).
  virtual void after_launch(const LaunchCall& launch, CUresult result) = 0;
};

}  // namespace barracuda::shim
