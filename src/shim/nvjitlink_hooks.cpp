#include "shim/nvjitlink_hooks.h"

#include <dlfcn.h>

#include <array>
#include <atomic>
#include <cstddef>
#include <utility>

#include "shim/real_driver.h"
#include "shim/reentrancy_guard.h"
#include "shim/shim_runtime.h"

namespace barracuda::shim {
namespace {

using AddData = nvJitLinkResult (*)(nvJitLinkHandle, nvJitLinkInputType, const void*, size_t, const char*);
using AddFile = nvJitLinkResult (*)(nvJitLinkHandle, nvJitLinkInputType, const char*);
using GetCubin = nvJitLinkResult (*)(nvJitLinkHandle, void*);
using GetSize = nvJitLinkResult (*)(nvJitLinkHandle, size_t*);
using Destroy = nvJitLinkResult (*)(nvJitLinkHandle*);

enum class Call { kAddData, kAddFile, kGetLinkedCubin, kDestroy };

struct WrappedName {
  std::string_view name;
  Call call;
  std::string_view cubin_size;  // the size query of the same family, for kGetLinkedCubin
};

// nvJitLink.h's inline functions call the versioned names (_12_0 from a CUDA 12 toolkit's header, whose
// signatures are the same); bindings may look up the plain ones.
constexpr std::array kWrapped{
    WrappedName{"__nvJitLinkAddData_13_0", Call::kAddData, {}},
    WrappedName{"__nvJitLinkAddData_12_0", Call::kAddData, {}},
    WrappedName{"nvJitLinkAddData", Call::kAddData, {}},
    WrappedName{"__nvJitLinkAddFile_13_0", Call::kAddFile, {}},
    WrappedName{"__nvJitLinkAddFile_12_0", Call::kAddFile, {}},
    WrappedName{"nvJitLinkAddFile", Call::kAddFile, {}},
    WrappedName{"__nvJitLinkGetLinkedCubin_13_0", Call::kGetLinkedCubin, "__nvJitLinkGetLinkedCubinSize_13_0"},
    WrappedName{"__nvJitLinkGetLinkedCubin_12_0", Call::kGetLinkedCubin, "__nvJitLinkGetLinkedCubinSize_12_0"},
    WrappedName{"nvJitLinkGetLinkedCubin", Call::kGetLinkedCubin, "nvJitLinkGetLinkedCubinSize"},
    WrappedName{"__nvJitLinkDestroy_13_0", Call::kDestroy, {}},
    WrappedName{"__nvJitLinkDestroy_12_0", Call::kDestroy, {}},
    WrappedName{"nvJitLinkDestroy", Call::kDestroy, {}},
};

// The real function behind each wrapped name (one nvJitLink library per process), and for the cubin
// getters the size query found beside them.
struct RealFunctions {
  std::array<std::atomic<void*>, kWrapped.size()> functions{};
  std::array<std::atomic<void*>, kWrapped.size()> cubin_sizes{};
};
RealFunctions reals;

std::optional<std::size_t> index_of(std::string_view name) {
  for (std::size_t i = 0; i < kWrapped.size(); ++i) {
    if (kWrapped[i].name == name) return i;
  }
  return std::nullopt;
}

void* lookup(void* handle, std::string_view name) {
  DlsymFunction real = real_dlsym();
  return real != nullptr ? real(handle, std::string(name).c_str()) : nullptr;
}

// Records `real` (found through `handle`) for name `index`; false when another library's is recorded.
bool adopt(std::size_t index, void* handle, void* real) {
  void* expected = nullptr;
  if (!reals.functions[index].compare_exchange_strong(expected, real) && expected != real) return false;
  if (!kWrapped[index].cubin_size.empty() && reals.cubin_sizes[index].load() == nullptr) {
    reals.cubin_sizes[index].store(lookup(handle, kWrapped[index].cubin_size));
  }
  return true;
}

// nvJitLink's input types as the driver's (module_observer.h's LinkInput speaks the driver's).
CUjitInputType driver_input_type(nvJitLinkInputType type) {
  switch (type) {
    case NVJITLINK_INPUT_CUBIN: return CU_JIT_INPUT_CUBIN;
    case NVJITLINK_INPUT_PTX: return CU_JIT_INPUT_PTX;
    case NVJITLINK_INPUT_LTOIR: return CU_JIT_INPUT_NVVM;
    case NVJITLINK_INPUT_FATBIN: return CU_JIT_INPUT_FATBINARY;
    case NVJITLINK_INPUT_OBJECT: return CU_JIT_INPUT_OBJECT;
    default: return CU_JIT_INPUT_LIBRARY;
  }
}

CUresult as_cu_result(nvJitLinkResult result) { return result == NVJITLINK_SUCCESS ? CUDA_SUCCESS : CUDA_ERROR_UNKNOWN; }

// Announces unless barracuda's own instrumentation (inside a hook on this thread) is linking.
template <typename Announce>
void announce(Announce&& visit) {
  ReentrancyGuard guard;
  if (guard.nested()) return;
  shim_runtime().module_observers.for_each(visit);
}

nvJitLinkResult add_data_through(std::size_t index, nvJitLinkHandle link, nvJitLinkInputType type, const void* data,
                                 size_t size, const char* name) {
  const auto real = reinterpret_cast<AddData>(reals.functions[index].load());
  if (real == nullptr) return NVJITLINK_ERROR_INTERNAL;
  const nvJitLinkResult result = real(link, type, data, size, name);
  const LinkInput input{{Linker::kNvJitLink, link}, driver_input_type(type), data, size, name, false, as_cu_result(result)};
  announce([&](ModuleObserver& observer) { observer.on_link_input(input); });
  return result;
}

nvJitLinkResult add_file_through(std::size_t index, nvJitLinkHandle link, nvJitLinkInputType type, const char* path) {
  const auto real = reinterpret_cast<AddFile>(reals.functions[index].load());
  if (real == nullptr) return NVJITLINK_ERROR_INTERNAL;
  const nvJitLinkResult result = real(link, type, path);
  const LinkInput input{{Linker::kNvJitLink, link}, driver_input_type(type), nullptr, 0, path, true, as_cu_result(result)};
  announce([&](ModuleObserver& observer) { observer.on_link_input(input); });
  return result;
}

nvJitLinkResult get_linked_cubin_through(std::size_t index, nvJitLinkHandle link, void* cubin) {
  const auto real = reinterpret_cast<GetCubin>(reals.functions[index].load());
  if (real == nullptr) return NVJITLINK_ERROR_INTERNAL;
  const nvJitLinkResult result = real(link, cubin);
  const auto size_of = reinterpret_cast<GetSize>(reals.cubin_sizes[index].load());
  size_t size = 0;
  if (result == NVJITLINK_SUCCESS && cubin != nullptr && size_of != nullptr && size_of(link, &size) == NVJITLINK_SUCCESS) {
    const LinkOutput output{{Linker::kNvJitLink, link}, cubin, size, CUDA_SUCCESS};
    announce([&](ModuleObserver& observer) { observer.on_link_complete(output); });
  }
  return result;
}

nvJitLinkResult destroy_through(std::size_t index, nvJitLinkHandle* link) {
  const auto real = reinterpret_cast<Destroy>(reals.functions[index].load());
  if (real == nullptr) return NVJITLINK_ERROR_INTERNAL;
  if (link != nullptr) {
    const LinkId id{Linker::kNvJitLink, *link};
    announce([&](ModuleObserver& observer) { observer.on_link_destroy(id); });
  }
  return real(link);
}

// A wrapper per wrapped name: dlsym's caller gets a bare function pointer of the right signature.
template <std::size_t Index>
void* wrapper() {
  if constexpr (kWrapped[Index].call == Call::kAddData) {
    return reinterpret_cast<void*>(+[](nvJitLinkHandle link, nvJitLinkInputType type, const void* data, size_t size,
                                       const char* name) { return add_data_through(Index, link, type, data, size, name); });
  } else if constexpr (kWrapped[Index].call == Call::kAddFile) {
    return reinterpret_cast<void*>(
        +[](nvJitLinkHandle link, nvJitLinkInputType type, const char* path) { return add_file_through(Index, link, type, path); });
  } else if constexpr (kWrapped[Index].call == Call::kGetLinkedCubin) {
    return reinterpret_cast<void*>(+[](nvJitLinkHandle link, void* cubin) { return get_linked_cubin_through(Index, link, cubin); });
  } else {
    return reinterpret_cast<void*>(+[](nvJitLinkHandle* link) { return destroy_through(Index, link); });
  }
}

template <std::size_t... Indices>
std::array<void*, kWrapped.size()> make_wrappers(std::index_sequence<Indices...>) {
  return {wrapper<Indices>()...};
}

void* wrapper_at(std::size_t index) {
  static const std::array<void*, kWrapped.size()> wrappers = make_wrappers(std::make_index_sequence<kWrapped.size()>{});
  return wrappers[index];
}

// The export path: the definition after the preload library's own (RTLD_NEXT from here: nvJitLink's).
std::size_t exported(std::string_view name) {
  const std::size_t index = index_of(name).value();
  if (reals.functions[index].load() == nullptr) {
    if (void* real = lookup(RTLD_NEXT, name)) adopt(index, RTLD_NEXT, real);
  }
  return index;
}

}  // namespace

bool is_wrapped_nvjitlink_symbol(std::string_view name) { return index_of(name).has_value(); }

void* nvjitlink_wrapper_for(std::string_view name, void* handle, void* real) {
  const std::optional<std::size_t> index = index_of(name);
  if (!index || !adopt(*index, handle, real)) return nullptr;
  return wrapper_at(*index);
}

nvJitLinkResult exported_nvjitlink_add_data(std::string_view name, nvJitLinkHandle link, nvJitLinkInputType type,
                                            const void* data, size_t size, const char* input_name) {
  return add_data_through(exported(name), link, type, data, size, input_name);
}

nvJitLinkResult exported_nvjitlink_add_file(std::string_view name, nvJitLinkHandle link, nvJitLinkInputType type,
                                            const char* path) {
  return add_file_through(exported(name), link, type, path);
}

nvJitLinkResult exported_nvjitlink_get_linked_cubin(std::string_view name, nvJitLinkHandle link, void* cubin) {
  return get_linked_cubin_through(exported(name), link, cubin);
}

nvJitLinkResult exported_nvjitlink_destroy(std::string_view name, nvJitLinkHandle* link) {
  return destroy_through(exported(name), link);
}

}  // namespace barracuda::shim
