#include "shim/nvrtc_hooks.h"

#include <dlfcn.h>

#include <array>
#include <atomic>
#include <cstring>
#include <mutex>
#include <string>
#include <utility>

#include "shim/real_driver.h"
#include "shim/shim_runtime.h"

namespace barracuda::shim {
namespace {

using GetBytes = nvrtcResult (*)(nvrtcProgram, char*);
using GetSize = nvrtcResult (*)(nvrtcProgram, size_t*);

// One NVRTC library the application reached: its nvrtcGetCUBIN, and the calls that read the same
// program's PTX, looked up through the same handle.
struct NvrtcLibrary {
  std::atomic<GetBytes> get_cubin{nullptr};  // set last: a slot is in use once this is
  GetSize get_cubin_size = nullptr;
  GetSize get_ptx_size = nullptr;
  GetBytes get_ptx = nullptr;
};

// A process rarely holds more than one NVRTC (a Python process may hold two majors); a wrapper is
// compiled per slot because dlsym's caller gets a bare function pointer.
constexpr std::size_t kNvrtcLibraries = 4;
std::array<NvrtcLibrary, kNvrtcLibraries> libraries;
std::mutex libraries_mutex;

template <typename Function>
Function lookup(void* handle, const char* name) {
  DlsymFunction real = real_dlsym();
  return real != nullptr ? reinterpret_cast<Function>(real(handle, name)) : nullptr;
}

// The slot of the library whose nvrtcGetCUBIN is `real`, filled from `handle` on first sight.
NvrtcLibrary* library_for(void* handle, GetBytes real) {
  for (NvrtcLibrary& library : libraries) {
    if (library.get_cubin.load(std::memory_order_acquire) == real) return &library;
  }
  std::lock_guard lock(libraries_mutex);
  for (NvrtcLibrary& library : libraries) {
    GetBytes held = library.get_cubin.load(std::memory_order_relaxed);
    if (held == real) return &library;
    if (held != nullptr) continue;
    library.get_cubin_size = lookup<GetSize>(handle, "nvrtcGetCUBINSize");
    library.get_ptx_size = lookup<GetSize>(handle, "nvrtcGetPTXSize");
    library.get_ptx = lookup<GetBytes>(handle, "nvrtcGetPTX");
    library.get_cubin.store(real, std::memory_order_release);
    return &library;
  }
  return nullptr;
}

// Hands the observers the cubin just written and its program's PTX. Programs compiled for a virtual
// architecture have no cubin (the call failed before this); programs without PTX (LTO-IR only) are
// left out, and their cubin later loads as "cubin only".
void announce(const NvrtcLibrary& library, nvrtcProgram program, const char* cubin) {
  ShimRuntime& runtime = shim_runtime();
  if (runtime.runtime_compilation_observers.empty()) return;
  if (library.get_cubin_size == nullptr || library.get_ptx_size == nullptr || library.get_ptx == nullptr) return;
  size_t cubin_size = 0;
  size_t ptx_size = 0;
  if (library.get_cubin_size(program, &cubin_size) != NVRTC_SUCCESS || cubin_size == 0) return;
  if (library.get_ptx_size(program, &ptx_size) != NVRTC_SUCCESS || ptx_size == 0) return;
  try {
    std::string ptx(ptx_size, '\0');
    if (library.get_ptx(program, ptx.data()) != NVRTC_SUCCESS) return;
    ptx.resize(std::strlen(ptx.c_str()));
    const RuntimeCompiledCubin compiled{cubin, cubin_size, ptx};
    runtime.runtime_compilation_observers.for_each(
        [&](RuntimeCompilationObserver& observer) { observer.on_cubin_compiled(compiled); });
  } catch (...) {
    // Out of memory for the PTX copy: the application's call still succeeded; the cubin runs unchecked.
  }
}

nvrtcResult get_cubin_through(const NvrtcLibrary& library, nvrtcProgram program, char* cubin) {
  const nvrtcResult result = library.get_cubin.load(std::memory_order_acquire)(program, cubin);
  if (result == NVRTC_SUCCESS && cubin != nullptr) announce(library, program, cubin);
  return result;
}

template <std::size_t Slot>
nvrtcResult get_cubin_wrapper(nvrtcProgram program, char* cubin) {
  return get_cubin_through(libraries[Slot], program, cubin);
}

template <std::size_t... Slots>
constexpr std::array<GetBytes, kNvrtcLibraries> make_wrappers(std::index_sequence<Slots...>) {
  return {&get_cubin_wrapper<Slots>...};
}
constexpr std::array<GetBytes, kNvrtcLibraries> kWrappers = make_wrappers(std::make_index_sequence<kNvrtcLibraries>{});

}  // namespace

bool is_wrapped_nvrtc_symbol(std::string_view name) { return name == "nvrtcGetCUBIN"; }

void* nvrtc_wrapper_for(void* handle, void* real) {
  NvrtcLibrary* library = library_for(handle, reinterpret_cast<GetBytes>(real));
  if (library == nullptr) return nullptr;
  return reinterpret_cast<void*>(kWrappers[static_cast<std::size_t>(library - libraries.data())]);
}

nvrtcResult exported_nvrtc_get_cubin(nvrtcProgram program, char* cubin) {
  // RTLD_NEXT from here: the definition after the preload library's own, i.e. NVRTC's.
  static NvrtcLibrary* const library = [] {
    auto real = lookup<GetBytes>(RTLD_NEXT, "nvrtcGetCUBIN");
    return real != nullptr ? library_for(RTLD_NEXT, real) : nullptr;
  }();
  if (library == nullptr) {
    // More NVRTC libraries than slots: call through without checking. No NVRTC at all cannot happen
    // (the application linked this symbol), but must not crash either.
    auto real = lookup<GetBytes>(RTLD_NEXT, "nvrtcGetCUBIN");
    return real != nullptr ? real(program, cubin) : NVRTC_ERROR_INVALID_INPUT;
  }
  return get_cubin_through(*library, program, cubin);
}

}  // namespace barracuda::shim
