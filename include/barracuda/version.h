#pragma once
// The tool's version: reports, SARIF, `barracuda --version` and the cubin cache key all name this one.
#include <string_view>

namespace barracuda {

inline constexpr std::string_view kToolVersion = "0.1.0";

}  // namespace barracuda
