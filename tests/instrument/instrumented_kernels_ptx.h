#pragma once
// PTX of instrumented_kernels.cu (nvcc -ptx -lineinfo), embedded at build time.
#include <string_view>

namespace barracuda {

std::string_view instrumented_kernels_ptx();

}  // namespace barracuda
