#pragma once
// The module's call graph as the per-kernel analyses (fence_free_functions.h,
// barrier_only_kernels.h) need it: which defined functions each function calls, and which
// functions the module cannot vouch for. Whatever the module cannot see counts against a kernel:
//   - an indirect call anywhere (the call graph is unknown);
//   - a call to a function without a body here, or to a .weak one (another module's definition may
//     win at link time), except the PTX system calls (vprintf, malloc, free, __assertfail) and the
//     device runtime (__barracuda_*), which are never instrumented and synchronise nothing;
//   - a .func other modules can call (.visible/.weak/.common, as with -rdc): it may run in their
//     kernels, whatever this module's kernels are like.
#include <functional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ptx/module.h"

namespace barracuda::ptx::passes {

struct CallGraph {
  // The module's definitions, the device runtime's left out.
  std::vector<const Function*> definitions;
  std::unordered_map<const Function*, std::vector<const Function*>> callees;
  // Functions that call something the module cannot vouch for (see above).
  std::unordered_set<const Function*> calls_unknown;
  bool has_indirect_call = false;

  explicit CallGraph(const Module& module);
  // `kernel` and every function it can call, transitively.
  std::unordered_set<const Function*> closure(const Function* kernel) const;
};

// Other modules may call it, or replace its body at link time.
bool exposed(const Function& function);

// The functions every kernel that reaches them satisfies `kernel_ok` for, kernels included; none
// when the module has an indirect call; never an exposed .func. `kernel_ok` sees the kernel's
// closure.
std::unordered_set<const Function*> functions_of_kernels_where(
    const CallGraph& graph, const std::function<bool(const std::unordered_set<const Function*>&)>& kernel_ok);

}  // namespace barracuda::ptx::passes
