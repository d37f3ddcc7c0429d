#pragma once
// Notifications about GPU code the application compiles at run time. NVRTC hands the application a
// cubin with no PTX in it (nvrtcGetCUBIN after compiling for a real architecture, sm_90); the PTX it
// was compiled from stays in the NVRTC program. Observers learn both when the application takes the
// cubin, so the instrumenter can check the cubin's kernels when the application loads it.
// Observers must not throw: they run inside NVRTC entry points called from C.
#include <cstddef>
#include <string_view>

namespace barracuda::shim {

struct RuntimeCompiledCubin {
  const void* cubin;  // what nvrtcGetCUBIN wrote into the application's buffer
  std::size_t cubin_size;
  std::string_view ptx;  // the program's PTX, without its NUL
};

class RuntimeCompilationObserver {
 public:
  virtual ~RuntimeCompilationObserver() = default;
  virtual void on_cubin_compiled(const RuntimeCompiledCubin& compiled) = 0;
};

}  // namespace barracuda::shim
