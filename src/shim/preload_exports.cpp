// The wrapped driver entry points under libcuda's own names, for applications linked with -lcuda: the
// dynamic linker binds their calls to these definitions because the preload library comes first. Each
// forwards to the thunk wrapping libcuda's definition of the same name.
#include <cudaTypedefs.h>

#include <string_view>

#include "shim/driver_entry.h"
#include "shim/real_driver.h"

// cuda.h maps these names onto their newest versions; the original names are libcuda exports too (the
// original cuLinkAddData has the same signature as cuLinkAddData_v2; the original graph updates take
// CUDA_KERNEL_NODE_PARAMS_v1 and an error node). BARRACUDA_DEFINE_EXPORT checks that none is left.
#undef cuGetProcAddress
#undef cuLinkAddData
#undef cuLinkAddFile
#undef cuGraphExecKernelNodeSetParams
#undef cuGraphExecUpdate

namespace {

template <typename Function>
Function wrapped_export(const char* name) {
  std::optional<barracuda::shim::HookedSymbol> hooked = barracuda::shim::hook_for_exported_symbol(name);
  void* real = barracuda::shim::libcuda_symbol(name);
  return hooked ? reinterpret_cast<Function>(barracuda::shim::wrapper_for(*hooked, real)) : nullptr;
}

// What the application gets when libcuda.so.1 or the symbol cannot be found at run time.
constexpr CUresult kNoDriver = CUDA_ERROR_NOT_INITIALIZED;

}  // namespace

// `name` arrives macro-expanded, `listed_name` as hooked_entry_points.inc spells it: they differ when a
// cuda.h macro renames the entry point, which would define the export under another name.
#define BARRACUDA_DEFINE_EXPORT(name, listed_name, parameters, arguments)                              \
  extern "C" CUresult CUDAAPI name parameters {                                                         \
    static_assert(std::string_view(#name) == listed_name, "cuda.h renames " listed_name ": #undef it"); \
    static const auto forward = wrapped_export<CUresult(CUDAAPI*) parameters>(listed_name);             \
    return forward != nullptr ? forward arguments : kNoDriver;                                          \
  }
// Both list macros stringize the names themselves, before any other macro sees them.
#define BARRACUDA_DEFINE_EXPORTS(parameters, arguments, first_name, first_listed, ...) \
  BARRACUDA_DEFINE_EXPORT(first_name, first_listed, parameters, arguments)            \
  __VA_OPT__(BARRACUDA_DEFINE_EXPORT(__VA_ARGS__, parameters, arguments))
#define BARRACUDA_HOOK(hook, interceptor, parameters, arguments, first_name, ...) \
  BARRACUDA_DEFINE_EXPORTS(parameters, arguments, first_name, #first_name __VA_OPT__(, __VA_ARGS__, #__VA_ARGS__))
#define BARRACUDA_UNMODELLED_EXEC_CHANGE(hook, parameters, arguments, first_name, ...) \
  BARRACUDA_DEFINE_EXPORTS(parameters, arguments, first_name, #first_name __VA_OPT__(, __VA_ARGS__, #__VA_ARGS__))
#include "shim/hooked_entry_points.inc"
#undef BARRACUDA_HOOK
#undef BARRACUDA_UNMODELLED_EXEC_CHANGE
#undef BARRACUDA_DEFINE_EXPORTS
#undef BARRACUDA_DEFINE_EXPORT
