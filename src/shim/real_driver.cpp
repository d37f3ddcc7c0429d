#include "shim/real_driver.h"

#include <dlfcn.h>

#include <atomic>

namespace barracuda::shim {
namespace {

// glibc 2.34 moved dlsym into libc under a new version; older systems (and old binaries) have only the
// original one, from libdl.
constexpr const char* kDlsymVersions[] = {"GLIBC_2.34", "GLIBC_2.2.5"};

DlsymFunction find_real_dlsym() {
  for (const char* version : kDlsymVersions) {
    if (void* found = dlvsym(RTLD_NEXT, "dlsym", version)) return reinterpret_cast<DlsymFunction>(found);
  }
  return nullptr;
}

void* open_libcuda() {
  if (void* loaded = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD)) return loaded;
  return dlopen("libcuda.so.1", RTLD_NOW);
}

const void* shim_base() {
  Dl_info info{};
  return dladdr(reinterpret_cast<const void*>(&find_real_dlsym), &info) != 0 ? info.dli_fbase : nullptr;
}

}  // namespace

DlsymFunction real_dlsym() {
  // No function-local static: its initialisation guard would deadlock if dlvsym ever re-entered dlsym.
  static std::atomic<DlsymFunction> cached{nullptr};
  DlsymFunction found = cached.load(std::memory_order_acquire);
  if (found == nullptr) {
    found = find_real_dlsym();
    cached.store(found, std::memory_order_release);
  }
  return found;
}

void* libcuda_symbol(const char* name) {
  static void* const libcuda = open_libcuda();
  DlsymFunction lookup = real_dlsym();
  return libcuda != nullptr && lookup != nullptr ? lookup(libcuda, name) : nullptr;
}

bool is_shim_address(const void* address) {
  static const void* const own_base = shim_base();
  Dl_info info{};
  return dladdr(address, &info) != 0 && info.dli_fbase == own_base;
}

}  // namespace barracuda::shim
