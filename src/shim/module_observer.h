#pragma once
// Notifications about code the application hands to the driver. Observers must not throw: they run
// inside driver entry points called from C.
#include <cuda.h>

#include <compare>
#include <cstddef>
#include <cstdint>

#include "shim/module_image.h"

namespace barracuda::shim {

struct ModuleLoad {
  ModuleImage original;
  const void* loaded;  // the replacement when a transformer supplied one, else original.data
  CUresult result;
};

// Which linker a link input or output belongs to: the driver's (cuLink*), or nvJitLink used by the
// application itself (nvJitLinkAddData, ...).
enum class Linker : std::uint8_t { kDriver, kNvJitLink };

// One link: the linker and its handle (a CUlinkState or an nvJitLinkHandle).
struct LinkId {
  Linker linker;
  const void* handle;
  auto operator<=>(const LinkId&) const = default;
};

// One input of a JIT link (recorded, not transformed): cuLinkAddData / cuLinkAddFile, or
// nvJitLinkAddData / nvJitLinkAddFile (its input types given as the driver's equivalents:
// NVJITLINK_INPUT_LTOIR as CU_JIT_INPUT_NVVM).
struct LinkInput {
  LinkId link;
  CUjitInputType type;
  const void* data;  // null for cuLinkAddFile
  std::size_t size;  // 0 for cuLinkAddFile
  const char* name;  // the input's name (may be null), or the path of a file input
  bool from_file;
  CUresult result;   // nvJitLink's failures are given as CUDA_ERROR_UNKNOWN
};

// The linked cubin the application got (cuLinkComplete: owned by the link state; nvJitLinkGetLinkedCubin:
// copied into the application's buffer).
struct LinkOutput {
  LinkId link;
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
  // cuLinkDestroy / nvJitLinkDestroy: the link's inputs and cubin are gone (the handle may be reused).
  virtual void on_link_destroy(LinkId) {}
};

}  // namespace barracuda::shim
