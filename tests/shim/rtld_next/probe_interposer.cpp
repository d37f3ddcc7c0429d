// Preloaded after libbarracuda.so: wraps probe_value the usual way, through dlsym(RTLD_NEXT). glibc
// resolves RTLD_NEXT relative to its caller; if the shim's dlsym hid the caller, the lookup would start
// after libbarracuda.so, find this very definition and recurse forever.
#include <dlfcn.h>

extern "C" int probe_value() {
  static auto next = reinterpret_cast<int (*)()>(dlsym(RTLD_NEXT, "probe_value"));
  return next != nullptr && next != &probe_value ? 10 + next() : -1;
}
