#pragma once
// A driver function the shim wraps, and the wrappers (thunks) it hands out in its place.
#include <cudaTypedefs.h>

#include <atomic>
#include <cstddef>

#include "shim/hook_symbols.h"

namespace barracuda::shim {

// One wrapped driver function. The same base symbol can resolve to several driver functions (legacy and
// per-thread-stream variants, different libcuda handles), so each gets its own entry and its own thunk
// that knows which function to forward to.
struct DriverEntry {
  std::atomic<void*> real{nullptr};
  HookedSymbol symbol{};  // set before the entry's thunk is handed out

  template <typename Function>
  Function real_as() const {
    return reinterpret_cast<Function>(real.load(std::memory_order_acquire));
  }
};

// Distinct driver functions per hook that can be wrapped; further ones are returned unwrapped.
inline constexpr std::size_t kEntriesPerHook = 4;

// The thunk to hand out for the driver function `real` of `symbol`: the same thunk every time for the
// same `real`. Returns `real` itself (unwrapped) when the hook's entries are used up or `real` is null.
void* wrapper_for(HookedSymbol symbol, void* real);

}  // namespace barracuda::shim
