#pragma once
// Which driver entry points the shim wraps, and how the names applications ask for map onto them.
#include <cuda.h>

#include <cstdint>
#include <optional>
#include <string_view>

namespace barracuda::shim {

// One value per C signature the shim wraps (hooked_entry_points.inc, which says what each is for):
// variants with the same signature (the per-thread default stream "_ptsz" launch entry points,
// cuLinkAddData and cuLinkAddData_v2) share a hook.
enum class Hook : std::uint8_t {
#define BARRACUDA_HOOK(hook, ...) hook,
#include "shim/hooked_entry_points.inc"
#undef BARRACUDA_HOOK
};
// One "+1" per entry of the list.
inline constexpr std::size_t kHookCount = 0
#define BARRACUDA_HOOK(...) +1
#include "shim/hooked_entry_points.inc"
#undef BARRACUDA_HOOK
    ;

struct HookedSymbol {
  Hook hook;
  bool per_thread_stream;  // the "_ptsz"/"_ptds" flavour: stream 0 means the calling thread's default stream

  bool operator==(const HookedSymbol&) const = default;
};

// A symbol exported by libcuda, by its exact name as dlsym or the dynamic linker sees it
// ("cuLaunchKernel_ptsz", "cuGetProcAddress_v2"). Names the shim does not wrap give nullopt.
std::optional<HookedSymbol> hook_for_exported_symbol(std::string_view name);

// A cuGetProcAddress request: the base name without suffix, the caller's CUDA version (which picks the
// signature the driver returns) and flags (which pick the per-thread default stream variant).
std::optional<HookedSymbol> hook_for_proc_request(std::string_view name, int cuda_version, cuuint64_t flags);

// The exported name of the variant, for logs: "cuLaunchKernel_ptsz".
std::string_view exported_name(HookedSymbol symbol);

}  // namespace barracuda::shim
