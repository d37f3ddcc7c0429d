#include "shim/shim_runtime.h"

namespace barracuda::shim {

ShimRuntime& shim_runtime() {
  // Never destroyed: hooks may run from other threads or atexit handlers while the process exits.
  static ShimRuntime* const runtime = new ShimRuntime();
  return *runtime;
}

void install_module_transformer(ModuleTransformer& transformer) {
  shim_runtime().transformer.store(&transformer, std::memory_order_release);
}

bool add_module_observer(ModuleObserver& observer) { return shim_runtime().module_observers.add(observer); }

bool add_launch_observer(LaunchObserver& observer) { return shim_runtime().launch_observers.add(observer); }

bool add_sync_observer(SyncObserver& observer) { return shim_runtime().sync_observers.add(observer); }

bool add_memory_observer(MemoryObserver& observer) { return shim_runtime().memory_observers.add(observer); }

bool add_runtime_compilation_observer(RuntimeCompilationObserver& observer) {
  return shim_runtime().runtime_compilation_observers.add(observer);
}

}  // namespace barracuda::shim
