#pragma once
// The marker kernel shared by the shim's test apps, the fake driver and the replacement transformer.
// marker(out) writes kOriginalMarker + i to out[i] for every thread i of the grid (x and y linearised).
// The replacement transformer swaps the constant in the PTX for kReplacedMarker, so the values the app
// reads back show which code ran.

namespace barracuda::shim::testing {

inline constexpr unsigned kOriginalMarker = 0x1234567;  // 19088743, as it appears in the PTX
inline constexpr unsigned kReplacedMarker = 0x7654321;  // 124076833
inline constexpr const char* kOriginalMarkerText = "19088743";
inline constexpr const char* kReplacedMarkerText = "124076833";

}  // namespace barracuda::shim::testing
