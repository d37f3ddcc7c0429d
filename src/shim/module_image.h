#pragma once
// A GPU code image on its way into the driver, as the shim's interfaces describe it.
#include <cstddef>
#include <cstdint>
#include <optional>

#include "shim/hook_symbols.h"
#include "shim/image_kind.h"

namespace barracuda::shim {

// Numbers module loads in the order the shim sees them, starting at 1; launches refer back to it.
enum class ModuleId : std::uint32_t { Unknown = 0 };

struct ModuleImage {
  ModuleId id;
  HookedSymbol entry;  // which load entry point the application called
  const void* data;
  ImageKind kind;
  std::optional<std::size_t> size;  // where the image's own header tells it (see image_size)
};

}  // namespace barracuda::shim
