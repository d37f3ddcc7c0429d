#include "shim/kernel_registry.h"

#include <mutex>

namespace barracuda::shim {

void KernelRegistry::add_module(const void* module_handle, ModuleId id) {
  std::unique_lock lock(mutex_);
  modules_[module_handle] = id;
}

ModuleId KernelRegistry::module_of(const void* module_handle) const {
  std::shared_lock lock(mutex_);
  auto it = modules_.find(module_handle);
  return it == modules_.end() ? ModuleId::Unknown : it->second;
}

void KernelRegistry::add_kernel(const void* function_handle, const void* module_handle, std::string_view name) {
  add_named(function_handle, module_of(module_handle), name);
}

void KernelRegistry::add_alias(const void* function_handle, const void* known_handle) {
  std::unique_lock lock(mutex_);
  auto it = kernels_.find(known_handle);
  if (it != kernels_.end()) kernels_.insert_or_assign(function_handle, it->second);
}

void KernelRegistry::add_named(const void* function_handle, ModuleId module, std::string_view name) {
  std::unique_lock lock(mutex_);
  const KernelIdentity& identity = identities_.emplace_back(KernelIdentity{module, std::string(name)});
  kernels_.insert_or_assign(function_handle, &identity);
}

ModuleId KernelRegistry::sole_module_of_kernel(std::string_view name) const {
  std::shared_lock lock(mutex_);
  ModuleId sole = ModuleId::Unknown;
  for (const KernelIdentity& identity : identities_) {
    if (identity.name != name || identity.module == ModuleId::Unknown) continue;
    if (sole != ModuleId::Unknown && sole != identity.module) return ModuleId::Unknown;
    sole = identity.module;
  }
  return sole;
}

const KernelIdentity* KernelRegistry::find(const void* function_handle) const {
  std::shared_lock lock(mutex_);
  auto it = kernels_.find(function_handle);
  return it == kernels_.end() ? nullptr : it->second;
}

}  // namespace barracuda::shim
