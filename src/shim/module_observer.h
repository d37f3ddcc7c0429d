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

// One cuLinkAddData or cuLinkAddFile input (recorded, not transformed).
struct LinkInput {
  CUlinkState state;
  CUjitInputType type;
  const void* data;  // null for cuLinkAddFile
  std::size_t size;  // 0 for cuLinkAddFile
  const char* name;  // cuLinkAddData's name (may be null), or cuLinkAddFile's path
  bool from_file;
  CUresult result;
};

// What cuLinkComplete gave the application: the linked cubin, owned by the link state.
struct LinkOutput {
  CUlinkState state;
  const void* cubin;
  std::size_t size;
  CUresult result;
};

class ModuleObserver {
 public:
  virtual ~ModuleObserver() = default;
  virtual void on_module_load(const ModuleLoad& load) = 0;
  virtual void on_link_input(const LinkInput& input) = 0;
  virtual void on_link_complete(const LinkOutput&) {}
  // cuLinkDestroy: the state's inputs and cubin are gone (the handle may be reused).
  virtual void on_link_destroy(CUlinkState) {}
};

}  // namespace barracuda::shim
