#pragma once
// The decision behind the shim's exported dlsym. cudart (static or shared) finds the driver by
// dlopen("libcuda.so.1") + dlsym(handle, "cuGetProcAddress_v2"): a handle lookup that LD_PRELOAD alone
// cannot reach, so the shim exports dlsym and swaps the result for wrapped libcuda symbols.

namespace barracuda::shim {

// The wrapper to return for dlsym(handle, name), or null when the real dlsym's answer should be returned
// unchanged: names the shim does not wrap, RTLD_NEXT lookups (they come from other interposers and are
// relative to their caller, which only the real dlsym can see), lookups that found the shim's own
// exports, and lookups made while a hook is already running on this thread.
void* route_dlsym(void* handle, const char* name);

}  // namespace barracuda::shim
