#include "shim/driver_entry.h"

#include <array>
#include <mutex>
#include <type_traits>
#include <utility>

#include "shim/interceptors.h"

namespace barracuda::shim {
namespace {

// What each hook's thunks call (hooked_entry_points.inc).
template <Hook>
inline constexpr auto kInterceptor = nullptr;
#define BARRACUDA_HOOK(hook, interceptor, ...) \
  template <>                                \
  inline constexpr auto kInterceptor<Hook::hook> = &interceptor;
#include "shim/hooked_entry_points.inc"
#undef BARRACUDA_HOOK

struct HookEntries {
  std::mutex claim_mutex;
  std::array<DriverEntry, kEntriesPerHook> entries;
};

std::array<HookEntries, kHookCount>& all_entries() {
  static auto* const entries = new std::array<HookEntries, kHookCount>();
  return *entries;
}

// A thunk has the driver function's exact signature (minus the entry) and passes its own entry along.
template <Hook H, std::size_t Slot, typename Interceptor = std::remove_cv_t<decltype(kInterceptor<H>)>>
struct Thunk;
template <Hook H, std::size_t Slot, typename... Args>
struct Thunk<H, Slot, CUresult (*)(const DriverEntry&, Args...)> {
  static CUresult CUDAAPI call(Args... args) {
    return kInterceptor<H>(all_entries()[static_cast<std::size_t>(H)].entries[Slot], args...);
  }
};

using ThunkRow = std::array<void*, kEntriesPerHook>;

template <Hook H, std::size_t... Slots>
ThunkRow thunk_row(std::index_sequence<Slots...>) {
  return {reinterpret_cast<void*>(&Thunk<H, Slots>::call)...};
}

template <std::size_t... Hooks>
std::array<ThunkRow, kHookCount> thunk_table(std::index_sequence<Hooks...>) {
  return {thunk_row<static_cast<Hook>(Hooks)>(std::make_index_sequence<kEntriesPerHook>())...};
}

const std::array<ThunkRow, kHookCount>& thunks() {
  static const auto table = thunk_table(std::make_index_sequence<kHookCount>());
  return table;
}

}  // namespace

void* wrapper_for(HookedSymbol symbol, void* real) {
  if (real == nullptr) return nullptr;
  auto hook = static_cast<std::size_t>(symbol.hook);
  HookEntries& row = all_entries()[hook];
  std::lock_guard lock(row.claim_mutex);
  for (std::size_t slot = 0; slot < kEntriesPerHook; ++slot) {
    DriverEntry& entry = row.entries[slot];
    void* current = entry.real.load(std::memory_order_relaxed);
    if (current == real) return thunks()[hook][slot];
    if (current == nullptr) {
      entry.symbol = symbol;
      entry.real.store(real, std::memory_order_release);
      return thunks()[hook][slot];
    }
  }
  return real;
}

}  // namespace barracuda::shim
