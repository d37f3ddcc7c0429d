#pragma once
// The process-wide state behind the hooks, and how the rest of barracuda plugs into them.
#include <atomic>
#include <cstdint>

#include "shim/graph_replay.h"
#include "shim/kernel_registry.h"
#include "shim/launch_observer.h"
#include "shim/memory_observer.h"
#include "shim/module_observer.h"
#include "shim/module_transformer.h"
#include "shim/observer_list.h"
#include "shim/runtime_compilation_observer.h"
#include "shim/sync_observer.h"

namespace barracuda::shim {

struct ShimRuntime {
  KernelRegistry kernels;
  GraphReplays graphs;
  ObserverList<ModuleObserver> module_observers;
  ObserverList<LaunchObserver> launch_observers;
  ObserverList<SyncObserver> sync_observers;
  ObserverList<MemoryObserver> memory_observers;
  ObserverList<RuntimeCompilationObserver> runtime_compilation_observers;
  std::atomic<ModuleTransformer*> transformer{nullptr};
  std::atomic<std::uint32_t> last_module_id{0};

  ModuleId next_module_id() { return ModuleId{last_module_id.fetch_add(1, std::memory_order_relaxed) + 1}; }
};

ShimRuntime& shim_runtime();

// Registration: the objects must live for the rest of the process. A later transformer replaces an
// earlier one; observers accumulate (up to ObserverList::kCapacity, false when full).
void install_module_transformer(ModuleTransformer& transformer);
bool add_module_observer(ModuleObserver& observer);
bool add_launch_observer(LaunchObserver& observer);
bool add_sync_observer(SyncObserver& observer);
bool add_memory_observer(MemoryObserver& observer);
bool add_runtime_compilation_observer(RuntimeCompilationObserver& observer);

}  // namespace barracuda::shim
