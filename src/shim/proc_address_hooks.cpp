// cuGetProcAddress is where every cudart finds the driver: the caller's version and flags go to the
// driver unchanged, and only the returned pointer is swapped for the symbols the shim wraps.
#include <dlfcn.h>

#include "shim/dlsym_route.h"
#include "shim/interceptors.h"
#include "shim/nccl_hooks.h"
#include "shim/nvjitlink_hooks.h"
#include "shim/nvrtc_hooks.h"
#include "shim/real_driver.h"
#include "shim/reentrancy_guard.h"

namespace barracuda::shim {
namespace {

// `lookup_at(version)` asks the real cuGetProcAddress for the caller's symbol and flags at another
// version. The wrappers know the signatures up to the CUDA version the shim was built with; for a
// newer request the pointer is wrapped only if the driver gives the same function at the known version,
// i.e. the signature has not changed since.
template <typename LookupAt>
void* wrap_proc_address(const char* symbol, int cuda_version, cuuint64_t flags, void* returned,
                        LookupAt&& lookup_at) {
  if (symbol == nullptr || returned == nullptr) return returned;
  std::optional<HookedSymbol> hooked = hook_for_proc_request(symbol, cuda_version, flags);
  if (!hooked) return returned;
  if (cuda_version > CUDA_VERSION) {
    if (lookup_at(CUDA_VERSION) != returned) return returned;
    hooked = hook_for_proc_request(symbol, CUDA_VERSION, flags);
  }
  return wrapper_for(*hooked, returned);
}

}  // namespace

CUresult intercept_get_proc_address(const DriverEntry& entry, const char* symbol, void** function,
                                    int cuda_version, cuuint64_t flags) {
  auto real = entry.real_as<PFN_cuGetProcAddress_v11030>();
  CUresult result = real(symbol, function, cuda_version, flags);
  if (result == CUDA_SUCCESS && function != nullptr) {
    *function = wrap_proc_address(symbol, cuda_version, flags, *function, [&](int version) {
      void* found = nullptr;
      return real(symbol, &found, version, flags) == CUDA_SUCCESS ? found : nullptr;
    });
  }
  return result;
}

CUresult intercept_get_proc_address_v2(const DriverEntry& entry, const char* symbol, void** function,
                                       int cuda_version, cuuint64_t flags,
                                       CUdriverProcAddressQueryResult* symbol_status) {
  auto real = entry.real_as<PFN_cuGetProcAddress_v12000>();
  CUresult result = real(symbol, function, cuda_version, flags, symbol_status);
  if (result == CUDA_SUCCESS && function != nullptr) {
    *function = wrap_proc_address(symbol, cuda_version, flags, *function, [&](int version) {
      void* found = nullptr;
      CUdriverProcAddressQueryResult status{};
      return real(symbol, &found, version, flags, &status) == CUDA_SUCCESS ? found : nullptr;
    });
  }
  return result;
}

void* route_dlsym(void* handle, const char* name) {
  if (handle == RTLD_NEXT || name == nullptr) return nullptr;
  std::optional<HookedSymbol> hooked = hook_for_exported_symbol(name);
  const bool nvrtc = !hooked && is_wrapped_nvrtc_symbol(name);
  const bool nvjitlink = !hooked && !nvrtc && is_wrapped_nvjitlink_symbol(name);
  const bool nccl = !hooked && !nvrtc && !nvjitlink && is_wrapped_nccl_symbol(name);
  if (!hooked && !nvrtc && !nvjitlink && !nccl) return nullptr;
  ReentrancyGuard guard;
  DlsymFunction lookup = real_dlsym();
  if (guard.nested() || lookup == nullptr) return nullptr;
  void* real = lookup(handle, name);
  if (real == nullptr || is_shim_address(real)) return nullptr;
  if (nvrtc) return nvrtc_wrapper_for(handle, real);
  if (nvjitlink) return nvjitlink_wrapper_for(name, handle, real);
  if (nccl) return nccl_wrapper_for(name, real);
  return wrapper_for(*hooked, real);
}

}  // namespace barracuda::shim
