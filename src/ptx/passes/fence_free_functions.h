#pragma once
// Which functions of a module can only run in launches where no thread executes a fence
// (fence.*, membar.*). There, a relaxed, volatile or legacy strong write can never complete a
// fence's release pattern ("fence; write"), so it needs no sync ticket (docs/sync_order.md,
// "Tickets only where a fence can make them count").
//
// All threads of a launch run one kernel, so the question is per kernel: does anything the kernel
// can call, transitively, contain a fence? Whatever the module cannot see counts as "yes"
// (call_graph.h). A .func qualifies when every kernel of the module that reaches it has no fence.
#include <unordered_set>

#include "ptx/module.h"

namespace barracuda::ptx::passes {

class FenceFreeFunctions {
 public:
  explicit FenceFreeFunctions(const Module& module);

  // True when every launch that can run `function` executes no fence.
  bool contains(const Function& function) const { return fence_free_.contains(&function); }

 private:
  std::unordered_set<const Function*> fence_free_;
};

}  // namespace barracuda::ptx::passes
