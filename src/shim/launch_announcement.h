#pragma once
// How a launch reaches the launch observers: described before the driver call, announced around it.
// Used by the launch entry points and by the graph replay for each kernel node.
#include <cuda.h>

#include "shim/kernel_registry.h"
#include "shim/launch_observer.h"
#include "shim/reentrancy_guard.h"
#include "shim/shim_runtime.h"

namespace barracuda::shim {

// The kernel's name and module: from the registry (filled by the get-function hooks) or, once per
// handle, from the driver.
const KernelIdentity& identify(CUfunction function);

// `describe()` gives the LaunchCall, `launch()` performs the driver call.
template <typename Describe, typename Launch>
CUresult announce_launch(Describe&& describe, Launch&& launch) {
  ReentrancyGuard guard;
  ShimRuntime& runtime = shim_runtime();
  if (guard.nested() || runtime.launch_observers.empty()) return launch();
  const LaunchCall info = describe();
  runtime.launch_observers.for_each([&](LaunchObserver& observer) { observer.before_launch(info); });
  CUresult result = launch();
  runtime.launch_observers.for_each([&](LaunchObserver& observer) { observer.after_launch(info, result); });
  return result;
}

template <typename Launch>
CUresult observe_launch(HookedSymbol entry, CUfunction function, Dim3 grid, Dim3 block, unsigned shared_mem_bytes,
                        CUstream stream, void* const* kernel_params, Launch&& launch, GraphNodeRef graph_node = {}) {
  return announce_launch(
      [&] {
        const KernelIdentity& kernel = identify(function);
        LaunchCall info{entry, function, kernel.name, kernel.module, grid, block, shared_mem_bytes, stream};
        info.graph_node = graph_node;
        info.kernel_params = kernel_params;
        return info;
      },
      launch);
}

}  // namespace barracuda::shim
