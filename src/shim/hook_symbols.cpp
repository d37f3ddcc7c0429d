#include "shim/hook_symbols.h"

#include <algorithm>
#include <array>

namespace barracuda::shim {
namespace {

struct ExportedSymbol {
  std::string_view name;
  HookedSymbol symbol;
};

// The driver's convention for the per-thread default stream variants' names.
constexpr bool names_per_thread_variant(std::string_view name) {
  return name.ends_with("_ptsz") || name.ends_with("_ptds");
}

constexpr ExportedSymbol exported_symbol(std::string_view name, Hook hook) {
  return {name, {hook, names_per_thread_variant(name)}};
}

// Every libcuda export the shim wraps, in the list's order (exported_name takes the first of a hook's
// names). Both macros stringize the names themselves: passed on to another macro, the names cuda.h
// #defines (cuLinkAddData, ...) would turn into their newest versions.
#define BARRACUDA_EXPORTED_SYMBOLS(hook, first_name, ...) \
  exported_symbol(first_name, Hook::hook), __VA_OPT__(exported_symbol(__VA_ARGS__, Hook::hook), )
#define BARRACUDA_HOOK(hook, interceptor, parameters, arguments, first_name, ...) \
  BARRACUDA_EXPORTED_SYMBOLS(hook, #first_name __VA_OPT__(, #__VA_ARGS__))
#define BARRACUDA_UNMODELLED_EXEC_CHANGE(hook, parameters, arguments, first_name, ...) \
  BARRACUDA_EXPORTED_SYMBOLS(hook, #first_name __VA_OPT__(, #__VA_ARGS__))
constexpr std::array kExportedSymbols{
#include "shim/hooked_entry_points.inc"
};
#undef BARRACUDA_HOOK
#undef BARRACUDA_UNMODELLED_EXEC_CHANGE
#undef BARRACUDA_EXPORTED_SYMBOLS

// cuGetProcAddress takes base names; from `since` on, the driver answers `base` with the function
// exported as `exported` (another signature: the hook is that export's).
struct VersionedRequest {
  std::string_view base;
  int since;
  std::string_view exported;
};
constexpr std::array kVersionedRequests{
    VersionedRequest{"cuGetProcAddress", 12000, "cuGetProcAddress_v2"},
    VersionedRequest{"cuCtxSynchronize", 13000, "cuCtxSynchronize_v2"},
    // Before 3.2 these names took 32-bit device pointers: no hook.
    VersionedRequest{"cuMemcpyHtoD", 3020, "cuMemcpyHtoD_v2"},
    VersionedRequest{"cuMemcpyDtoH", 3020, "cuMemcpyDtoH_v2"},
    VersionedRequest{"cuMemcpyDtoD", 3020, "cuMemcpyDtoD_v2"},
    VersionedRequest{"cuMemFree", 3020, "cuMemFree_v2"},
    VersionedRequest{"cuMemAlloc", 3020, "cuMemAlloc_v2"},
    VersionedRequest{"cuMemAllocPitch", 3020, "cuMemAllocPitch_v2"},
    // The unversioned names are older behaviours (a reset that kept the context's flags, ...): no hook.
    VersionedRequest{"cuDevicePrimaryCtxReset", 11000, "cuDevicePrimaryCtxReset_v2"},
    VersionedRequest{"cuDevicePrimaryCtxRelease", 11000, "cuDevicePrimaryCtxRelease_v2"},
    VersionedRequest{"cuCtxDestroy", 4000, "cuCtxDestroy_v2"},
    // CUDA_KERNEL_NODE_PARAMS_v2 and CUgraphExecUpdateResultInfo from 12.0 on. ("cuGraphInstantiate"
    // took an error node and a log buffer before 12.0: not wrapped, in any version.)
    VersionedRequest{"cuGraphExecKernelNodeSetParams", 12000, "cuGraphExecKernelNodeSetParams_v2"},
    VersionedRequest{"cuGraphExecUpdate", 12000, "cuGraphExecUpdate_v2"},
};

constexpr bool is_exported_symbol(std::string_view name) {
  return std::ranges::any_of(kExportedSymbols, [name](const ExportedSymbol& exported) { return exported.name == name; });
}

// A name listed twice would make the second entry unreachable; a request for an unlisted export, dead.
static_assert(std::ranges::all_of(kExportedSymbols, [](const ExportedSymbol& exported) {
  return std::ranges::count(kExportedSymbols, exported.name, &ExportedSymbol::name) == 1;
}));
static_assert(std::ranges::all_of(kVersionedRequests,
                                  [](const VersionedRequest& request) { return is_exported_symbol(request.exported); }));

bool has_per_thread_variant(Hook hook) {
  return std::ranges::any_of(kExportedSymbols, [hook](const ExportedSymbol& exported) {
    return exported.symbol == HookedSymbol{hook, true};
  });
}

}  // namespace

std::optional<HookedSymbol> hook_for_exported_symbol(std::string_view name) {
  for (const ExportedSymbol& exported : kExportedSymbols) {
    if (exported.name == name) return exported.symbol;
  }
  return std::nullopt;
}

std::optional<HookedSymbol> hook_for_proc_request(std::string_view name, int cuda_version, cuuint64_t flags) {
  // cuGetProcAddress takes base names and lets the flags pick the "_ptsz" variant, so a suffixed
  // per-thread name is not a request the driver answers.
  for (const VersionedRequest& request : kVersionedRequests) {
    if (request.base == name) {
      if (cuda_version >= request.since) name = request.exported;
      break;
    }
  }
  std::optional<HookedSymbol> found = hook_for_exported_symbol(name);
  if (!found || found->per_thread_stream) return std::nullopt;
  found->per_thread_stream =
      has_per_thread_variant(found->hook) && (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) != 0;
  return found;
}

std::string_view exported_name(HookedSymbol symbol) {
  for (const ExportedSymbol& exported : kExportedSymbols) {
    if (exported.symbol == symbol) return exported.name;
  }
  return {};
}

}  // namespace barracuda::shim
