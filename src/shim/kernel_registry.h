#pragma once
// Maps driver handles back to what the shim saw load them: CUmodule/CUlibrary -> ModuleId, and
// CUfunction/CUkernel -> (module, kernel name), so a launch can be attributed without asking the driver.
#include <cstdint>
#include <deque>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "shim/module_image.h"

namespace barracuda::shim {

struct KernelIdentity {
  ModuleId module;
  std::string name;
};

class KernelRegistry {
 public:
  // Handles are opaque pointers to the registry; CUmodule/CUlibrary and CUfunction/CUkernel go into
  // separate maps because the driver does not promise they are distinct across kinds.
  void add_module(const void* module_handle, ModuleId id);
  ModuleId module_of(const void* module_handle) const;

  void add_kernel(const void* function_handle, const void* module_handle, std::string_view name);
  // Registers `function_handle` as another handle for the kernel known as `known_handle`
  // (cuKernelGetFunction: the per-context CUfunction of a CUkernel).
  void add_alias(const void* function_handle, const void* known_handle);
  void add_named(const void* function_handle, ModuleId module, std::string_view name);

  // The result stays valid and unchanged for the life of the registry, so launches can use it without
  // holding a lock: a handle the driver reuses after an unload is pointed at a new identity, and the old
  // one is kept.
  const KernelIdentity* find(const void* function_handle) const;
  // The module every known kernel called `name` belongs to, or Unknown when none is known or they are in
  // different modules. (A captured graph's kernel node names a per-context CUfunction of a library's
  // kernel; the driver's cuFuncGetModule then answers with a module handle the shim never saw load.)
  ModuleId sole_module_of_kernel(std::string_view name) const;

 private:
  mutable std::shared_mutex mutex_;
  std::unordered_map<const void*, ModuleId> modules_;
  std::deque<KernelIdentity> identities_;  // a deque never moves its elements
  std::unordered_map<const void*, const KernelIdentity*> kernels_;
};

}  // namespace barracuda::shim
