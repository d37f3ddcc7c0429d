#include "shim/hook_symbols.h"

#include <algorithm>
#include <array>

namespace barracuda::shim {
namespace {

struct ExportedSymbol {
  std::string_view name;
  HookedSymbol symbol;
};

// Every libcuda export the shim wraps (CUDA 13.0 names). Exact names only: a future "_v3" may change
// the signature, so anything not listed here is passed through untouched.
constexpr std::array kExportedSymbols{
    ExportedSymbol{"cuGetProcAddress", {Hook::GetProcAddress, false}},
    ExportedSymbol{"cuGetProcAddress_v2", {Hook::GetProcAddressV2, false}},
    ExportedSymbol{"cuLibraryLoadData", {Hook::LibraryLoadData, false}},
    ExportedSymbol{"cuModuleLoadData", {Hook::ModuleLoadData, false}},
    ExportedSymbol{"cuModuleLoadDataEx", {Hook::ModuleLoadDataEx, false}},
    ExportedSymbol{"cuModuleLoadFatBinary", {Hook::ModuleLoadFatBinary, false}},
    ExportedSymbol{"cuLinkAddData", {Hook::LinkAddData, false}},
    ExportedSymbol{"cuLinkAddData_v2", {Hook::LinkAddData, false}},
    ExportedSymbol{"cuLaunchKernel", {Hook::LaunchKernel, false}},
    ExportedSymbol{"cuLaunchKernel_ptsz", {Hook::LaunchKernel, true}},
    ExportedSymbol{"cuLaunchKernelEx", {Hook::LaunchKernelEx, false}},
    ExportedSymbol{"cuLaunchKernelEx_ptsz", {Hook::LaunchKernelEx, true}},
    ExportedSymbol{"cuLaunchCooperativeKernel", {Hook::LaunchCooperativeKernel, false}},
    ExportedSymbol{"cuLaunchCooperativeKernel_ptsz", {Hook::LaunchCooperativeKernel, true}},
    ExportedSymbol{"cuModuleGetFunction", {Hook::ModuleGetFunction, false}},
    ExportedSymbol{"cuLibraryGetKernel", {Hook::LibraryGetKernel, false}},
    ExportedSymbol{"cuKernelGetFunction", {Hook::KernelGetFunction, false}},
};

// cuGetProcAddress returns the 5-parameter cuGetProcAddress_v2 to callers asking for CUDA 12.0 or later.
constexpr int kGetProcAddressV2Version = 12000;

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
  std::optional<HookedSymbol> found = hook_for_exported_symbol(name);
  if (!found || found->per_thread_stream) return std::nullopt;
  if (found->hook == Hook::GetProcAddress && cuda_version >= kGetProcAddressV2Version) {
    found->hook = Hook::GetProcAddressV2;
  }
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
