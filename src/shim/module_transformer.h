#pragma once
// Where the instrumentation pipeline plugs into module loading.
#include <cuda.h>

#include "shim/module_image.h"

namespace barracuda::shim {

// What the driver returned for a module load: cuLibraryLoadData gives a library, the others a module.
struct LoadedHandle {
  CUmodule module = nullptr;
  CUlibrary library = nullptr;
};

class ModuleTransformer {
 public:
  virtual ~ModuleTransformer() = default;

  // Returns the image to load instead of `image`, or nullptr to load the original. The replacement must
  // stay valid for the life of the process: cudart loads with CU_LIBRARY_BINARY_IS_PRESERVED, so the
  // driver keeps pointing into it. Called with the shim's hooks disabled on this thread, so it may itself
  // use the driver or nvJitLink.
  virtual const void* transform(const ModuleImage& image) = 0;
  // Called after the driver loaded a replacement this transformer returned (exactly one handle set), to
  // initialise the module's globals before any of its kernels can run. Same hook state as transform().
  virtual void loaded(const ModuleImage& image, const LoadedHandle& handle) = 0;
};

}  // namespace barracuda::shim
