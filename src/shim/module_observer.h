#pragma once
// Notifications about code the application hands to the driver. Observers must not throw: they run
// inside driver entry points called from C.
#include <cuda.h>

#include <cstddef>

#include "shim/module_image.h"

namespace barracuda::shim {

struct ModuleLoad {
  ModuleImage original;
  const void* loaded;  // the replacement when a transformer supplied one, else original.data
  CUresult result;
};

// One cuLinkAddData input (recorded, not transformed).
struct LinkInput {
  CUjitInputType type;
  const void* data;
  std::size_t size;
  const char* name;  // may be null
  CUresult result;
};

class ModuleObserver {
 public:
  virtual ~ModuleObserver() = default;
  virtual void on_module_load(const ModuleLoad& load) = 0;
  virtual void on_link_input(const LinkInput& input) = 0;
};

}  // namespace barracuda::shim
