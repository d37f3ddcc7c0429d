// The run-time compilers' wrapped entry points under their own names, for applications linked with
// -lnvrtc or -lnvJitLink: the dynamic linker binds their calls here because the preload library comes
// first (shim/nvrtc_hooks.h, shim/nvjitlink_hooks.h).
#include "shim/nvjitlink_hooks.h"
#include "shim/nvrtc_hooks.h"

extern "C" nvrtcResult nvrtcGetCUBIN(nvrtcProgram program, char* cubin) {
  return barracuda::shim::exported_nvrtc_get_cubin(program, cubin);
}

// nvJitLink's entry points under the versioned names nvJitLink.h's inline functions call
// (shim/nvjitlink_hooks.h). The plain names are static inline functions in that header, so they cannot
// be defined here; the shim's dlsym still wraps them for bindings that look them up.
#define BARRACUDA_NVJITLINK_EXPORTS(add_data, add_file, get_linked_cubin, destroy)                              \
  extern "C" nvJitLinkResult add_data(nvJitLinkHandle link, nvJitLinkInputType type, const void* data, size_t size, \
                                      const char* name) {                                                       \
    return barracuda::shim::exported_nvjitlink_add_data(#add_data, link, type, data, size, name);              \
  }                                                                                                             \
  extern "C" nvJitLinkResult add_file(nvJitLinkHandle link, nvJitLinkInputType type, const char* path) {        \
    return barracuda::shim::exported_nvjitlink_add_file(#add_file, link, type, path);                          \
  }                                                                                                             \
  extern "C" nvJitLinkResult get_linked_cubin(nvJitLinkHandle link, void* cubin) {                              \
    return barracuda::shim::exported_nvjitlink_get_linked_cubin(#get_linked_cubin, link, cubin);               \
  }                                                                                                             \
  extern "C" nvJitLinkResult destroy(nvJitLinkHandle* link) {                                                   \
    return barracuda::shim::exported_nvjitlink_destroy(#destroy, link);                                         \
  }
BARRACUDA_NVJITLINK_EXPORTS(__nvJitLinkAddData_13_0, __nvJitLinkAddFile_13_0, __nvJitLinkGetLinkedCubin_13_0,
                            __nvJitLinkDestroy_13_0)
BARRACUDA_NVJITLINK_EXPORTS(__nvJitLinkAddData_12_0, __nvJitLinkAddFile_12_0, __nvJitLinkGetLinkedCubin_12_0,
                            __nvJitLinkDestroy_12_0)
