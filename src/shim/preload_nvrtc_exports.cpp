// NVRTC's nvrtcGetCUBIN under its own name, for applications linked with -lnvrtc: the dynamic linker
// binds their calls here because the preload library comes first (shim/nvrtc_hooks.h).
#include "shim/nvrtc_hooks.h"

extern "C" nvrtcResult nvrtcGetCUBIN(nvrtcProgram program, char* cubin) {
  return barracuda::shim::exported_nvrtc_get_cubin(program, cubin);
}
