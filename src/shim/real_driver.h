#pragma once
// The functions the shim forwards to: the C library's dlsym and libcuda's own definitions. libcuda is
// never linked: it is opened at run time, so the shim (and its tests) load on machines without it.

namespace barracuda::shim {

using DlsymFunction = void* (*)(void* handle, const char* name);

// The C library's dlsym, found with dlvsym so that the shim's exported dlsym is bypassed.
DlsymFunction real_dlsym();

// libcuda.so.1's definition of `name` (the exact exported name), or null when libcuda cannot be opened
// or lacks the symbol.
void* libcuda_symbol(const char* name);

// True when `address` lies in the object that contains the shim (the preload library, or a test binary
// linking the shim statically): a dlsym lookup that found the shim's own export needs no wrapping.
bool is_shim_address(const void* address);

}  // namespace barracuda::shim
