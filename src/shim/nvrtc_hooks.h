#pragma once
// The shim's NVRTC wrappers (runtime_compilation_observer.h says why). NVRTC reaches the application
// three ways, and each is covered: linked (-lnvrtc: the preload library exports nvrtcGetCUBIN), opened
// with dlopen and looked up with dlsym (C++ libraries, Python's ctypes, CuPy, cuda-python: the shim's
// dlsym returns a wrapper), and through both in one process.
#include <nvrtc.h>

#include <string_view>

namespace barracuda::shim {

// Whether the shim wraps this NVRTC export.
bool is_wrapped_nvrtc_symbol(std::string_view name);

// The wrapper to return from dlsym for `real`, the NVRTC library's nvrtcGetCUBIN found through
// `handle`; null when the shim has no room left for another NVRTC library (the real one is then used).
void* nvrtc_wrapper_for(void* handle, void* real);

// What the preload library's exported nvrtcGetCUBIN does: the call goes to the next library's
// definition, the cubin and its PTX to the observers.
nvrtcResult exported_nvrtc_get_cubin(nvrtcProgram program, char* cubin);

}  // namespace barracuda::shim
