#pragma once
// What each wrapped driver entry point does around the driver's own function (entry.real). The thunks of
// driver_entry.h call these; the signatures are the driver's, with the entry in front.
#include <cuda.h>

#include "shim/driver_entry.h"

namespace barracuda::shim {

// The interceptors named in hooked_entry_points.inc, defined in the *_hooks.cpp files. Two hooks may
// share one (the same declaration twice).
#define BARRACUDA_WITH_ENTRY(...) (const DriverEntry& entry __VA_OPT__(, ) __VA_ARGS__)
#define BARRACUDA_HOOK(hook, interceptor, parameters, ...) CUresult interceptor BARRACUDA_WITH_ENTRY parameters;
#define BARRACUDA_UNMODELLED_EXEC_CHANGE(...)
#include "shim/hooked_entry_points.inc"
#undef BARRACUDA_HOOK
#undef BARRACUDA_UNMODELLED_EXEC_CHANGE
#undef BARRACUDA_WITH_ENTRY

// A change of an instantiated graph that the replay does not model: its launches are no longer replayed.
void forget_replay(CUgraphExec exec, HookedSymbol entry);
template <typename Function>
struct UnmodelledExecChange;
template <typename... Args>
struct UnmodelledExecChange<CUresult(CUDAAPI*)(CUgraphExec, Args...)> {
  static CUresult intercept(const DriverEntry& entry, CUgraphExec exec, Args... args) {
    const CUresult result = entry.real_as<CUresult(CUDAAPI*)(CUgraphExec, Args...)>()(exec, args...);
    if (result == CUDA_SUCCESS) forget_replay(exec, entry.symbol);
    return result;
  }
};

}  // namespace barracuda::shim
