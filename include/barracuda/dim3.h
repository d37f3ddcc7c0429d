#pragma once
// Grid and block dimensions as CUDA gives them (the shim reads them from the launch, the engine sizes
// its state by them). Coordinates inside them are report::Coord3.
#include <stdint.h>

namespace barracuda {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  constexpr uint64_t volume() const { return uint64_t{x} * y * z; }
  friend constexpr bool operator==(const Dim3&, const Dim3&) = default;
};

}  // namespace barracuda
