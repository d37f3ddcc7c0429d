#pragma once
// PTX of the probe kernels (runtime_probe.cu), embedded at build time like the runtime's.
#include <string_view>

namespace barracuda {

std::string_view runtime_probe_ptx();

}  // namespace barracuda
