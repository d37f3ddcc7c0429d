#pragma once
// The names of the functions a classification of a module's functions contains
// (shared_checkable_kernels.h, global_checkable_kernels.h), for tests to compare with the expected set.
#include <cstdint>
#include <set>
#include <string>

#include "ptx/module.h"

namespace barracuda::ptx::passes {

template <typename Classification>
std::set<std::string> contained_functions(const Module& module, uint32_t first_site_id = 0) {
  const Classification classification(module, first_site_id);
  std::set<std::string> names;
  for (const Function* function : module.functions()) {
    if (classification.contains(*function)) names.emplace(function->name);
  }
  return names;
}

}  // namespace barracuda::ptx::passes
